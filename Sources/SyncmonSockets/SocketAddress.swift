#if canImport(Glibc)
import Glibc
#endif

/// Where a ``BlockingSocket`` connects, listens or binds: the IPv4 loopback, a Unix socket
/// file, or a name in Linux's abstract namespace (what systemd writes as `@name`).
public enum SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// 127.0.0.1 and a port; port 0 lets the kernel choose when listening.
    case loopback(port: Int)
    /// A Unix socket file.
    case unix(path: String)
    /// A Unix socket with no file: the kernel matches it by name.
    case abstract(name: String)

    /// `127.0.0.1:PORT`, the path, or `@name`: what error messages and `NOTIFY_SOCKET` show.
    public var description: String {
        switch self {
        case .loopback(let port): "127.0.0.1:\(port)"
        case .unix(let path): path
        case .abstract(let name): "@" + name
        }
    }

    var family: Int32 {
        switch self {
        case .loopback: AF_INET
        case .unix, .abstract: AF_UNIX
        }
    }

    /// Calls `body` with the address as the kernel takes it.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) throws -> Result {
        switch self {
        case .loopback(let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(INADDR_LOOPBACK).bigEndian)
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .unix(let path):
            // A path ends with a NUL byte, counted in the length.
            return try self.withUnixAddress(Array(path.utf8) + [0], body)
        case .abstract(let name):
            // An abstract name starts with a NUL byte; the length counts only the bytes used.
            return try self.withUnixAddress([0] + Array(name.utf8), body)
        }
    }

    private func withUnixAddress<Result>(
        _ bytes: [UInt8],
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) throws -> Result {
        var address = sockaddr_un()
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw SocketError(.address, self, code: ENAMETOOLONG)
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
