import SyncmonSockets

/// Finds a free TCP port on 127.0.0.1 by listening on port 0 and reading what the kernel chose.
///
/// The port is released before it is returned, so another process may take it in between;
/// `DaemonProcess` retries with a new one when the daemon cannot bind. A test that needs a port
/// nobody listens on takes a ``RefusingPort`` instead: a freed port can be taken by a server of
/// a test running beside it, and then the "refused" test talks to that server.
public enum FreePort {
    public static func next() throws -> Int {
        let socket = try BlockingSocket.listen(on: .loopback(port: 0))
        defer { socket.close() }
        return try socket.localPort()
    }
}
