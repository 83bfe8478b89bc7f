import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// Why the daemon cannot run, typed to the boundary: the executable prints it (the message
/// names the thing and the fix) and exits with its status (docs/operations.md, "Exit status of
/// `syncmon daemon`"). The statuses are sysexits(3)'s, each kept to one meaning.
package enum DaemonError: Error, CustomStringConvertible, Equatable {
    /// The events socket or the state directory is another daemon's, or cannot be told not
    /// to be: 73 (EX_CANTCREAT).
    case taken(String)
    /// The configuration asks for what cannot be (a source's settings or credential, a rules
    /// file, a listen address): 78 (EX_CONFIG), as for an error in the file itself.
    case configuration(String)
    /// The daemon's user may not write where it must (the state directory): 77 (EX_NOPERM).
    case permission(String)
    /// The file system will not take a write the daemon must make (read-only, full): 74 (EX_IOERR).
    case cannotWrite(String)
    /// The system refused what the daemon needs (a socket, a directory, a file): 1.
    case system(String)

    package var description: String {
        switch self {
        case .taken(let message), .configuration(let message), .permission(let message), .cannotWrite(let message), .system(let message):
            message
        }
    }

    /// The daemon's exit status for it.
    package var exitCode: Int32 {
        switch self {
        case .taken: 73
        case .configuration: 78
        case .permission: 77
        case .cannotWrite: 74
        case .system: 1
        }
    }
}

extension DaemonError {
    /// The state directory `directory` cannot be made or written: `code` is the errno met at
    /// `path` (the directory, a parent it needed, or its lock file). Said once, with the fix:
    /// permission denied is 77, anything else (a read-only file system, a full one) is 74; 73
    /// stays "another daemon's".
    package static func stateDirectory(_ directory: String, failedAt path: String, code: Int32) -> DaemonError {
        let inside = path == directory || path.hasPrefix(directory + "/")
        let head = "cannot write the state directory \(directory)"
        switch code {
        case EACCES, EPERM:
            let user = Self.userName
            let fix =
                inside
                ? "give it to the daemon's user (chown \(user): \(directory))"
                : "create it for the daemon's user (install -d -o \(user) \(directory))"
            return .permission("\(head): permission denied\(inside ? "" : " on \(path)") for user \(user); \(fix) or choose another --state-dir")
        case EROFS:
            return .cannotWrite("\(head): the file system is read-only; choose a --state-dir on a writable file system")
        case ENOTDIR, EEXIST:
            return .cannotWrite("\(head): a file is in the way, where its path needs a directory; choose another --state-dir")
        default:
            return .cannotWrite("\(head): \(SystemErrorText.words(code))\(inside ? "" : " (at \(path))"); choose another --state-dir")
        }
    }

    /// The effective user's name (its id when it has none), for the fix.
    private static var userName: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "\(geteuid())" }
        return String(cString: name)
    }
}
