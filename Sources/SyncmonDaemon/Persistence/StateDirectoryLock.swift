import SyncmonContract
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// The state directory held for the daemon's life (docs/operations.md, "One daemon per socket"):
/// `lock` in it, locked with `flock(LOCK_EX | LOCK_NB)`, the holder's pid written in it.
///
/// Two daemons on one directory would overwrite each other's `state.json`. The lock is the
/// kernel's: it goes with the process, so one left by a daemon killed with SIGKILL frees itself,
/// and two daemons starting at the same instant cannot both take it.
package final class StateDirectoryLock: Sendable {
    package let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Takes the lock of `directory` (created when missing) or throws: 73 naming the holder's
    /// pid, 77 or 74 when the directory cannot be made or written (``DaemonError/stateDirectory(_:failedAt:code:)``).
    package static func take(_ directory: String) throws(DaemonError) -> StateDirectoryLock {
        let path = directory + "/lock"
        do {
            try AtomicFile.prepareDirectory(of: path)
        } catch let error as DirectoryCreationError {
            throw DaemonError.stateDirectory(directory, failedAt: error.path, code: error.code)
        } catch {
            throw DaemonError.system("cannot create the state directory \(directory): \(error)")
        }
        // Readable by all: the pid in it is what a second daemon, or an operator, reads. Held
        // open read-only (flock needs no write access): a descriptor open for writing would
        // keep the directory's file system from being remounted read-only.
        let descriptor = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DaemonError.stateDirectory(directory, failedAt: path, code: errno) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            let holder = Self.readPid(descriptor)
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw DaemonError.taken("cannot lock \(path): \(SystemErrorText.words(code))")
            }
            throw DaemonError.taken(Self.heldMessage(directory, pid: holder))
        }
        // The lock opens read-only on a read-only file system once it exists: the state must
        // be writable too, or every save would fail later, silently to the one who started it.
        guard access(directory, W_OK) == 0 else {
            let code = errno
            close(descriptor)
            throw DaemonError.stateDirectory(directory, failedAt: directory, code: code)
        }
        // The pid through a second descriptor, closed at once: closing it leaves the lock,
        // which belongs to the first one's open file description.
        let writer = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        if writer >= 0 {
            let text = Array("\(getpid())\n".utf8)
            _ = text.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            close(writer)
        }
        return StateDirectoryLock(path: path, descriptor: descriptor)
    }

    static func heldMessage(_ directory: String, pid: Int32?) -> String {
        let holder = pid.map { "another syncmon daemon (pid \($0))" } ?? "another syncmon daemon"
        return "the state directory \(directory) is in use: \(holder) holds \(directory)/lock. Two daemons would overwrite each other's state; "
            + "stop that one first (systemctl stop syncmon when it is the service), or give this daemon its own --state-dir and --events-socket"
    }

    /// The pid the holder wrote; `nil` while it has not written it yet (it won the lock an
    /// instant ago) or the file holds something else.
    private static func readPid(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingSpaces
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }

    deinit { close(self.descriptor) }
}

extension String {
    /// Without leading and trailing spaces and newlines.
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\n" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
