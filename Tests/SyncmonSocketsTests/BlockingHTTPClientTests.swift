import Foundation
import SyncmonLock
import SyncmonSockets
import Testing

/// ``BlockingHTTPClient``: response parsing, one request per connection, and a kept-alive
/// connection, against a server made of ``BlockingSocket``s.
@Suite("Blocking HTTP client")
struct BlockingHTTPClientTests {
    @Test(
        "a response is cut to its length, de-chunked, or read to the end; HEAD has no body",
        arguments: [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Test:  padded \r\n\r\nhelloEXTRA", true, 200, "OK", "hello"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n", true, 200, "OK", "hello, world"),
            ("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\nto the end", true, 404, "Not Found", "to the end"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", false, 200, "OK", ""),
            ("HTTP/1.1 204\r\n\r\n", true, 204, "", ""),
        ]
    )
    func parse(raw: String, hasBody: Bool, status: Int, reason: String, body: String) throws {
        let response = try BlockingHTTPClient.Response.parse(Array(raw.utf8), hasBody: hasBody)
        #expect(response.status == status)
        #expect(response.reason == reason)
        #expect(response.text == body)
    }

    @Test("header names are lower-cased, values trimmed, looked up whatever the case")
    func headers() throws {
        let response = try BlockingHTTPClient.Response.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Test:  padded \r\nX-Test: again\r\n\r\n".utf8))
        #expect(response.headers.map(\.name) == ["content-length", "x-test", "x-test"])
        #expect(response.header("X-TEST") == "padded")
        #expect(response.header("missing") == nil)
    }

    @Test(
        "what is not a response is an error that shows it",
        arguments: [
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", "no complete response head in 36 bytes: HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"),
            ("SSH-2.0-OpenSSH\r\n\r\n", "bad status line: SSH-2.0-OpenSSH"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "body has 3 of 10 bytes"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc", "bad chunk size zz"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", "truncated chunk"),
        ]
    )
    func malformed(raw: String, message: String) {
        #expect(throws: HTTPFailure(message)) {
            try BlockingHTTPClient.Response.parse(Array(raw.utf8))
        }
    }

    @Test("a GET sends the request line, Host, Connection: close and the extra headers, and parses the answer")
    func get() throws {
        let server = try OneConnectionServer { request in
            "HTTP/1.1 200 OK\r\nContent-Length: \(request.utf8.count)\r\n\r\n\(request)"
        }
        let response = try BlockingHTTPClient.get(port: server.port, path: "/api/v1/status?engine=a", headers: [("Accept", "application/json")])
        #expect(response.status == 200)
        #expect(
            response.text == "GET /api/v1/status?engine=a HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\nAccept: application/json\r\n\r\n")
    }

    @Test("exchange hands over every byte until the server closes")
    func exchange() throws {
        let body = String(repeating: "0123456789", count: 30_000)
        let server = try OneConnectionServer { _ in "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + body }
        var total = 0
        var pieces = 0
        let request = BlockingHTTPClient.request(path: "/metrics", host: "bench", keepAlive: false)
        try BlockingHTTPClient.exchange(port: server.port, request: request, bufferSize: 4096) { piece in
            total += piece.count
            pieces += 1
        }
        #expect(total == "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8.count + body.utf8.count)
        #expect(pieces >= total / 4096)
    }

    @Test("a kept-alive connection carries one request after another, each answer framed by its length")
    func keepAlive() throws {
        let server = try OneConnectionServer { request in
            let path = request.split(separator: " ")[1]
            return "HTTP/1.1 200 OK\r\nContent-Length: \(path.utf8.count)\r\n\r\n\(path)"
        }
        let connection = try BlockingHTTPClient.Connection(port: server.port)
        for path in ["/first", "/second", "/api/v1/status?engine=latency-probe"] {
            let response = try connection.get(path)
            #expect(response.text == path)
        }
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { !$0.contains("Connection: close") })
    }
}

/// A loopback server that accepts one connection and answers each request head on it with
/// what `respond` makes of it, until the client closes or asks for `Connection: close`.
final class OneConnectionServer: Sendable {
    let port: Int
    private let listener: BlockingSocket
    private let recorded = Locked<[String]>([])

    init(respond: @escaping @Sendable (String) -> String) throws {
        self.listener = try BlockingSocket.listen(on: .loopback(port: 0))
        self.port = try self.listener.localPort()
        // The thread keeps the server until the client closes its connection.
        Thread { [self] in self.serve(respond) }.start()
    }

    deinit { self.listener.close() }

    /// The request heads read so far.
    var requests: [String] { self.recorded.withLock { $0 } }

    private func serve(_ respond: (String) -> String) {
        guard let connection = try? self.listener.accept() else { return }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try? connection.receive(into: &buffer), count > 0 {
            pending += buffer[0..<count]
            while let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                let request = String(decoding: pending[..<end.upperBound], as: UTF8.self)
                pending.removeFirst(end.upperBound)
                self.recorded.withLock { $0.append(request) }
                guard (try? connection.send(respond(request))) != nil, !request.contains("Connection: close") else {
                    // Closing ends the response of a `Connection: close` request.
                    connection.close()
                    return
                }
            }
        }
    }
}
