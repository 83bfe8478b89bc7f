import Foundation
import SyncmonSockets
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``BlockingSocket`` against itself: what one end sends the other receives, on every kind of
/// address; every descriptor is close-on-exec; failures name the call, the address and errno.
@Suite("Blocking sockets")
struct BlockingSocketTests {
    /// A name no other test (or test run) uses.
    static func uniqueName() -> String { "syncmon-sockets-\(getpid())-\(UUID().uuidString.prefix(8))" }

    @Test("bytes sent on a connection arrive at the accepted end, then the end of the stream", arguments: ["loopback", "unix", "abstract"])
    func roundTrip(kind: String) throws {
        let name = Self.uniqueName()
        let requested: SocketAddress =
            switch kind {
            case "loopback": .loopback(port: 0)
            case "unix": .unix(path: "/tmp/\(name).sock")
            default: .abstract(name: name)
            }
        let listener = try BlockingSocket.listen(on: requested)
        defer {
            listener.close()
            if case .unix(let path) = requested { unlink(path) }
        }
        var address = requested
        if case .loopback = requested { address = .loopback(port: try listener.localPort()) }

        let client = try BlockingSocket.connect(to: address, timeout: .seconds(5))
        let server = try listener.accept()
        try client.send("hello, ")
        try client.send(Array("daemon".utf8))
        client.shutdown()

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4)
        while true {
            let count = try server.receive(into: &buffer)
            if count == 0 { break }
            received += buffer[0..<count]
        }
        #expect(String(decoding: received, as: UTF8.self) == "hello, daemon")
        for socket in [listener, client, server] {
            #expect(fcntl(socket.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        }
    }

    @Test("without waiting, an empty socket is EAGAIN and a readable one is seen as such")
    func nonBlockingReceive() throws {
        let listener = try BlockingSocket.listen(on: .loopback(port: 0))
        let client = try BlockingSocket.connect(to: .loopback(port: try listener.localPort()))
        let server = try listener.accept()
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(!server.waitUntilReadable(milliseconds: 0))
        // An accepted socket goes by its listener's address.
        #expect(throws: SocketError(.receive, .loopback(port: 0), code: EAGAIN)) {
            try server.receive(into: &buffer, waiting: false)
        }
        try client.send("x")
        #expect(server.waitUntilReadable(milliseconds: 5_000))
        #expect(try server.receive(into: &buffer, waiting: false) == 1)
    }

    @Test(
        "failures say which call failed on which address, and why",
        arguments: [
            (
                SocketAddress.unix(path: "/nonexistent/syncmon/events.sock"), SocketError.Operation.connect, ENOENT,
                "connect /nonexistent/syncmon/events.sock: No such file or directory"
            ),
            (
                .unix(path: "/tmp/" + String(repeating: "x", count: 120)), .address, ENAMETOOLONG,
                "socket path too long (125 bytes): /tmp/" + String(repeating: "x", count: 120)
            ),
        ]
    )
    func failures(address: SocketAddress, operation: SocketError.Operation, code: Int32, message: String) {
        do {
            _ = try BlockingSocket.connect(to: address)
            Issue.record("connected to \(address)")
        } catch let error as SocketError {
            #expect(error.operation == operation)
            #expect(error.code == code)
            #expect(error.description == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a refused TCP connection is ECONNREFUSED")
    func refused() throws {
        // A port that was just free and that nothing listens on.
        let port = try BlockingSocket.listen(on: .loopback(port: 0)).localPort()
        #expect(throws: SocketError(.connect, .loopback(port: port), code: ECONNREFUSED)) {
            try BlockingSocket.connect(to: .loopback(port: port))
        }
    }

    @Test("shutting a listener down ends a blocked accept")
    func shutdownEndsAccept() throws {
        let listener = try BlockingSocket.listen(on: .unix(path: "/tmp/\(Self.uniqueName()).sock"))
        let failed = DispatchSemaphore(value: 0)
        Thread {
            if (try? listener.accept()) == nil { failed.signal() }
        }.start()
        // Whether accept was entered yet or not, it fails once the listener is shut down.
        listener.shutdown()
        #expect(failed.wait(timeout: .now() + 5) == .success)
        listener.close()
        if case .unix(let path) = listener.address { unlink(path) }
    }

    @Test("a datagram socket is bound where asked, and a file address leaves a socket file")
    func datagram() throws {
        let path = "/tmp/\(Self.uniqueName()).sock"
        let socket = try BlockingSocket.bindDatagram(to: .unix(path: path))
        defer {
            socket.close()
            unlink(path)
        }
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(fcntl(socket.descriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(throws: SocketError(.bind, .unix(path: path), code: EADDRINUSE)) {
            try BlockingSocket.bindDatagram(to: .unix(path: path))
        }
    }
}
