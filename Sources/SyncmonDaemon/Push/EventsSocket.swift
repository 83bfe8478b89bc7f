// The socket types (SOCK_STREAM, SOCK_CLOEXEC) through <sys/socket.h> of CNetlink's header: since
// CSystemd's header includes sd-bus.h, the Clang module that owns them is no longer Glibc's.
import CNetlink
import SyncmonContract
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// The push socket this daemon bound itself (docs/operations.md, "One daemon per socket"): a
/// listening descriptor for SwiftNIO to adopt, and the file's identity, so that the daemon
/// removes the path at exit only while it is still its own.
///
/// A socket file another process listens on is never removed or replaced: a second daemon on it
/// would leave the first one listening on a deleted path, deaf to every engine. A stale file
/// (nothing listening) is replaced, as a daemon killed with SIGKILL leaves one behind.
package struct EventsSocket: Sendable {
    package let path: String
    /// The listening socket, close-on-exec.
    let descriptor: Int32
    /// The socket file's device and inode right after `bind(2)`.
    let device: UInt64
    let inode: UInt64

    /// The backlog of pending connections. A burst at boot (every engine and `syncmon emit` at
    /// once) can exceed `max-connections`' default, and a client whose connect finds the backlog
    /// full gets EAGAIN rather than a wait; the kernel caps this at `net.core.somaxconn`.
    static let backlog: Int32 = 4096

    /// Probes `path`, replaces a stale file, binds and listens. Two daemons claiming the same
    /// path at once serialise on `path.lock` (flock, held only while claiming), so exactly one
    /// binds and the other finds it listening.
    ///
    /// - Throws: ``DaemonError`` with exit code 73 when another process listens on `path` or a
    ///   file that is not a socket is in the way; 77 when this user may not bind or probe it, 74
    ///   on a read-only file system; exit code 1 for anything else.
    package static func claim(_ path: String) throws(DaemonError) -> EventsSocket {
        do {
            try AtomicFile.prepareDirectory(of: path)
        } catch {
            throw DaemonError.system("cannot create the directory of the events socket \(path): \(error)")
        }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // Without a lock file (a directory we may bind in but not create files in, which Linux
        // does not have), the probe below still keeps a live socket safe.
        if lock >= 0 { _ = Self.retryingInterrupts { flock(lock, LOCK_EX) } }
        defer { if lock >= 0 { close(lock) } }
        try Self.removeIfStale(path)
        return try Self.bind(path)
    }

    /// Connects to `path` the way an engine would: an answer means someone listens.
    private static func removeIfStale(_ path: String) throws(DaemonError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError.taken(
                "cannot listen on the events socket \(path): a file that is not a socket is in the way; move it or choose another --events-socket")
        }
        switch Self.probe(path) {
        case .listening(let pid):
            throw DaemonError.taken(Self.takenMessage(path, pid: pid))
        case .stale:
            unlink(path)
        case .unknown(let code) where code == EACCES || code == EPERM:
            // Not another daemon's: this user may not use the file (exit 77, as for the state directory).
            throw DaemonError.permission(
                "cannot use the events socket \(path): permission denied; run syncmon daemon as the socket's owner, or choose another --events-socket"
            )
        case .unknown(let code):
            throw DaemonError.taken(
                "cannot tell whether another daemon listens on the events socket \(path): \(SystemErrorText.words(code)); run syncmon daemon as the socket's owner, or choose another --events-socket"
            )
        }
    }

    /// What connecting to a socket file found.
    enum Probe: Equatable {
        /// Something accepts connections there; its pid when the kernel says (SO_PEERCRED).
        case listening(pid: Int32?)
        /// Nobody listens (ECONNREFUSED): a daemon died without removing it.
        case stale
        /// The probe itself failed (permission denied, …).
        case unknown(errno: Int32)
    }

    static func probe(_ path: String) -> Probe {
        // Non-blocking: a blocking connect to a live daemon whose backlog is full would wait
        // for as long as that daemon is stuck; this one answers EAGAIN at once.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return .unknown(errno: errno) }
        defer { close(descriptor) }
        let connected = Self.withAddress(path) { address, length in Self.retryingInterrupts { connect(descriptor, address, length) } }
        guard connected == 0 else {
            let code = errno
            switch code {
            case ECONNREFUSED, ENOENT: return .stale
            // A full backlog: very much alive.
            case EAGAIN: return .listening(pid: nil)
            default: return .unknown(errno: code)
            }
        }
        var credentials = KernelPeerCredentials()
        var length = socklen_t(MemoryLayout<KernelPeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else {
            return .listening(pid: nil)
        }
        return .listening(pid: credentials.pid)
    }

    static func takenMessage(_ path: String, pid: Int32?) -> String {
        let holder = pid.map { "another process (pid \($0))" } ?? "another process"
        return "the events socket \(path) is in use: \(holder) listens on it. A second daemon there would leave that one deaf; "
            + "stop it first (systemctl stop syncmon when it is the service), or give this daemon its own --events-socket and --state-dir"
    }

    private static func bind(_ path: String) throws(DaemonError) -> EventsSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonError.system("cannot create the events socket \(path): \(SystemErrorText.words(errno))") }
        let bound = Self.withAddress(path) { address, length in Glibc.bind(descriptor, address, length) }
        guard bound == 0, listen(descriptor, Self.backlog) == 0 else {
            let code = errno
            close(descriptor)
            if code == EADDRINUSE {
                // Lost a race with a process that does not take the lock (not a syncmon daemon).
                throw DaemonError.taken(Self.takenMessage(path, pid: nil))
            }
            if bound == -2 { throw DaemonError.taken("the events socket path is too long (over 107 bytes): \(path)") }
            throw Self.bindError(path, code: code)
        }
        // Engines in the socket's group may write; nobody else (docs/protocol.md#transports).
        chmod(path, 0o660)
        var status = stat()
        _ = stat(path, &status)
        return EventsSocket(path: path, descriptor: descriptor, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Why binding `path` failed, with the exit status its fix belongs to: permission denied is
    /// 77 and a read-only file system 74, as for the state directory; 73 stays "another daemon's".
    package static func bindError(_ path: String, code: Int32) -> DaemonError {
        let head = "cannot listen on the events socket \(path)"
        switch code {
        case EACCES, EPERM:
            return .permission("\(head): permission denied in its directory; give the directory to the daemon's user, or choose another --events-socket")
        case EROFS:
            return .cannotWrite("\(head): the file system is read-only; choose an --events-socket on a writable file system")
        default:
            return .system("\(head): \(SystemErrorText.words(code))")
        }
    }

    /// Removes the socket file, unless it is no longer the one this daemon bound (another
    /// daemon replaced a file it found stale, or someone moved it away).
    func removeIfOwn() {
        var status = stat()
        guard lstat(self.path, &status) == 0, UInt64(status.st_dev) == self.device, UInt64(status.st_ino) == self.inode else { return }
        unlink(self.path)
    }

    /// Calls `body` with `path` as a `sockaddr_un`; -2 without calling it when the path does
    /// not fit.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return -2 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private static func retryingInterrupts(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result == 0 || errno != EINTR { return result }
        }
    }
}
