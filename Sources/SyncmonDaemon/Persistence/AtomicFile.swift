#if canImport(Glibc)
import Glibc
#endif

/// Files written whole or not at all: write a temporary, fsync, rename, fsync the directory.
enum AtomicFile {
    /// Writes `bytes` to `path` so that a crash leaves the old file or the new one, never half.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try PushIngestService.prepareDirectory(of: path)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DaemonError.system("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw DaemonError.system("cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw DaemonError.system("cannot rename \(temporary): \(reason)")
        }
        if let slash = path.lastIndex(of: "/") {
            let directory = open(String(path[..<slash]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory >= 0 {
                fsync(directory)
                close(directory)
            }
        }
    }
}
