import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// Why a command could not reach the daemon's push socket, in words that say what to do: the
/// socket's path, what the failure most likely means, and the fix. Shared by `emit` and `wrap`
/// (and every command that writes to the push socket).
enum PushSocketAdvice {
    /// How to point a command at the right socket.
    static let choosing = "give the daemon's socket with --events-socket or SYNCMON_EVENTS_SOCKET"

    /// The message for a failed `connect(2)` to `path` with `code` (an errno).
    static func cannotReach(_ path: String, errno code: Int32) -> String {
        let opening = "cannot reach the daemon at \(path)"
        switch code {
        case ENOENT:
            return "\(opening): no such socket. Is the daemon running (systemctl status syncmon)? If it listens elsewhere, \(Self.choosing)"
        case ECONNREFUSED:
            return "\(opening): nothing listens there (a socket file left by a daemon that is no longer running). "
                + "Start the daemon (systemctl start syncmon), or \(Self.choosing)"
        case EACCES, EPERM:
            return "\(opening): permission denied. Join the socket's group (sudo usermod -aG syncmon $USER, then log in again), or run as root"
        case ENOTDIR, ENOTSOCK:
            return
                "\(opening): not a socket (\(SystemErrorText.words(code))). Is the path right? \(Self.choosing.prefix(1).uppercased() + Self.choosing.dropFirst())"
        case EAGAIN:
            return "\(opening): the daemon accepts no more connections right now (its backlog is full); try again"
        default:
            return "\(opening): \(SystemErrorText.words(code)). Is the daemon running, and the path right? If not, \(Self.choosing)"
        }
    }

    /// The message for a socket path that does not fit a Unix socket address.
    static func tooLong(_ path: String) -> String {
        "the socket path is too long for a Unix socket (\(path.utf8.count) bytes, at most 107): \(path); choose a shorter --events-socket"
    }
}
