#if canImport(Glibc)
import Glibc
#endif

/// A failed socket call: which one, on what address, and the `errno` it left.
public struct SocketError: Error, Hashable, CustomStringConvertible {
    /// The call that failed.
    public enum Operation: String, Sendable {
        case socket, bind, listen, connect, accept, send
        case receive = "recv"
        case option = "setsockopt"
        case name = "getsockname"
        /// The address does not fit a `sockaddr_un` (no call was made).
        case address
    }

    public var operation: Operation
    /// The socket's address as ``SocketAddress`` describes it.
    public var address: String
    /// The `errno` value.
    public var code: Int32

    /// Takes the current `errno` unless `code` is given.
    public init(_ operation: Operation, _ address: SocketAddress, code: Int32 = errno) {
        self.operation = operation
        self.address = address.description
        self.code = code
    }

    /// `strerror(code)`: "Connection refused".
    public var reason: String { String(cString: strerror(self.code)) }

    /// "connect 127.0.0.1:9478: Connection refused", "socket path too long: /…".
    public var description: String {
        switch self.operation {
        case .address: "socket path too long (\(self.address.utf8.count) bytes): \(self.address)"
        default: "\(self.operation.rawValue) \(self.address): \(self.reason)"
        }
    }
}
