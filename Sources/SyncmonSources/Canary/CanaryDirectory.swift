import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// The file system side of one canary: `PATH/.syncmon/`, reached without following a
/// symbolic link at any step (`O_NOFOLLOW`), opened afresh for each piece of work so that a
/// PATH removed, unmounted or remounted read-only is met as an error, never a crash.
package struct CanaryDirectory: Sendable {
    /// The synced folder.
    let path: String
    /// `PATH/.syncmon`.
    var directory: String { self.path + "/.syncmon" }

    /// A failure, naming the path and the cause.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks at start that PATH is an existing directory and not a symbolic link; the
    /// error names it and says what to do.
    package static func validate(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "canary path \(path) is not absolute: give the full path of the synced folder" }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return "canary path \(path): \(Self.errorText(errno)): give an existing directory the engine syncs"
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            return "canary path \(path) is a symbolic link: give the directory it points to (syncmon never follows links there)"
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "canary path \(path) is not a directory: give the folder the engine syncs" }
        return nil
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Opens PATH and then `.syncmon` inside it (created when `create`), never through a link.
    func openDirectory(create: Bool) throws(Failure) -> Int32 {
        let base = open(self.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard base >= 0 else { throw Failure(description: "\(self.path): \(Self.errorText(errno))") }
        defer { close(base) }
        if create {
            if mkdirat(base, ".syncmon", 0o755) == 0 {
                // Past the unit's UMask=0077: the engine (another user) must read it.
                fchmodat(base, ".syncmon", 0o755, 0)
            } else if errno != EEXIST {
                throw Failure(description: "\(self.directory): \(Self.errorText(errno))")
            }
        }
        let descriptor = openat(base, ".syncmon", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP || errno == ENOTDIR ? "not a directory (a symbolic link is never followed)" : Self.errorText(errno)
            throw Failure(description: "\(self.directory): \(reason)")
        }
        return descriptor
    }

    /// Writes `file` as `canary-HOST.json`: a temporary file in the same directory, then a rename.
    func write(_ file: CanaryFile) throws(Failure) {
        let descriptor = try self.openDirectory(create: true)
        defer { close(descriptor) }
        let name = file.host.fileName
        // A dot first: no peer takes it for a canary (only `canary-*.json` are read).
        let temporary = "." + name + ".tmp"
        let output = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Failure(description: "\(self.directory)/\(temporary): \(Self.errorText(errno))") }
        // Readable by the engine whatever the umask (the shipped unit has UMask=0077).
        var failure: Int32 = fchmod(output, 0o644) == 0 ? 0 : errno
        let bytes = Array(file.encoded.utf8)
        bytes.withUnsafeBytes { raw in
            guard failure == 0 else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(output, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        // A full disk may only show at close (delayed allocation on some file systems).
        if close(output) != 0, failure == 0 { failure = errno }
        if failure == 0, renameat(descriptor, temporary, descriptor, name) != 0 { failure = errno }
        if failure != 0 {
            unlinkat(descriptor, temporary, 0)
            throw Failure(description: "\(self.directory)/\(name): \(Self.errorText(failure))")
        }
    }

    /// The `seq` of this host's own file, if one is there (a state directory lost or new).
    func ownSeq(_ host: CanaryHost) -> Int64? {
        guard let descriptor = try? self.openDirectory(create: false) else { return nil }
        defer { close(descriptor) }
        guard case .file(_, let bytes) = Self.read(host.fileName, in: descriptor), let file = CanaryFile.parse(bytes), file.host == host else {
            return nil
        }
        return file.seq
    }
}
