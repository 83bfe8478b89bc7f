import Foundation
import Glibc

/// A Unix datagram socket standing in for systemd's notification socket, to receive what `sd_notify` sends.
final class NotifySocketListener {
    /// What goes into `NOTIFY_SOCKET`: a path, or `@name` for the abstract namespace.
    let address: String

    /// The bound socket.
    private let fileDescriptor: Int32

    /// The file to remove on close, for path sockets.
    private let path: String?

    /// Binds a new socket, in the abstract namespace when `abstract` is true, otherwise as a file in the temporary
    /// directory. Receives time out after five seconds so a missing datagram fails the test instead of hanging it.
    init(abstract: Bool) throws {
        let name = "syncmon-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fileDescriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fileDescriptor >= 0 else { throw POSIXError.current("socket") }

        let path = abstract ? nil : "/tmp/\(name).sock"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract address is a NUL byte followed by the name; its length counts only the bytes used.
        let pathBytes: [UInt8] = abstract ? [0] + Array(name.utf8) : Array((path ?? "").utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            close(fileDescriptor)
            throw POSIXError(.ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fileDescriptor, $0, length) }
        }
        guard bound == 0 else {
            let error = POSIXError.current("bind")
            close(fileDescriptor)
            throw error
        }

        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        guard setsockopt(fileDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0
        else {
            let error = POSIXError.current("setsockopt")
            close(fileDescriptor)
            if let path { unlink(path) }
            throw error
        }

        self.fileDescriptor = fileDescriptor
        self.path = path
        self.address = abstract ? "@\(name)" : (path ?? "")
    }

    deinit {
        close(self.fileDescriptor)
        if let path = self.path {
            unlink(path)
        }
    }

    /// The next datagram, as text.
    func receive() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { recv(self.fileDescriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw POSIXError.current("recv") }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// Whether a datagram is waiting, without blocking.
    func hasPendingDatagram() -> Bool {
        var descriptor = pollfd(fd: self.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}

extension POSIXError {
    /// The error for the current `errno`, after `operation` failed.
    static func current(_ operation: String) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, userInfo: ["operation": operation])
    }
}
