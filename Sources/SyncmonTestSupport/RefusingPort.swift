import SyncmonSockets

/// A TCP port on 127.0.0.1 that refuses every connection for as long as the value lives: bound
/// and never listening, so no other test's server can take it while a test counts on
/// "connection refused" there. Close it in a `defer` after the test's last use (an object may
/// go away after its last use, and with it the port).
public final class RefusingPort: Sendable {
    /// The port number.
    public let port: Int
    private let socket: BlockingSocket

    public init() throws {
        socket = try BlockingSocket.bindStream(to: .loopback(port: 0))
        port = try socket.localPort()
    }

    /// Frees the port.
    public func close() { socket.close() }

    /// `http://127.0.0.1:<port>`.
    public var url: String { "http://127.0.0.1:\(port)" }
}
