#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client on ``BlockingSocket``, for the tests and the benchmark:
/// enough to see exactly what the daemon put on the wire (status, headers, the raw, possibly
/// compressed body) with no event loop in between.
///
/// The static functions make one request per connection (`Connection: close`) and read the
/// response to the end of the stream; ``Connection`` keeps one connection for many requests.
/// The `syncmon status` command, which wants TLS and a deadline, uses the daemon's
/// `HTTPGetClient` instead.
public enum BlockingHTTPClient {
    /// `method path` on 127.0.0.1:`port` with extra `headers`.
    public static func get(
        port: Int,
        path: String,
        headers: [(String, String)] = [],
        method: String = "GET",
        timeoutSeconds: Int = 10
    ) throws -> Response {
        let request = Self.request(method: method, path: path, host: "127.0.0.1:\(port)", headers: headers, keepAlive: false)
        return try self.raw(port: port, request: request, timeoutSeconds: timeoutSeconds)
    }

    /// Sends `request` bytes as they are and parses what comes back.
    public static func raw(port: Int, request: [UInt8], timeoutSeconds: Int = 10) throws -> Response {
        let bytes = try self.exchange(port: port, request: request, timeoutSeconds: timeoutSeconds)
        // A response to HEAD announces a length but carries no body.
        return try Response.parse(bytes, hasBody: !request.starts(with: Array("HEAD ".utf8)))
    }

    /// Connects, writes `request`, and returns everything read until the server closes.
    public static func exchange(port: Int, request: [UInt8], timeoutSeconds: Int = 10) throws -> [UInt8] {
        var response: [UInt8] = []
        try self.exchange(port: port, request: request, timeoutSeconds: timeoutSeconds) { response += $0 }
        return response
    }

    /// Connects, writes `request`, and hands every piece read to `consume` until the server
    /// closes: a caller that only counts a large body need not keep it.
    public static func exchange(
        port: Int,
        request: [UInt8],
        timeoutSeconds: Int = 10,
        bufferSize: Int = 65_536,
        _ consume: (ArraySlice<UInt8>) -> Void
    ) throws {
        let socket = try BlockingSocket.connect(to: .loopback(port: port), timeout: .seconds(timeoutSeconds))
        defer { socket.close() }
        do {
            try socket.send(request)
        } catch let error as SocketError where error.code == EPIPE || error.code == ECONNRESET {
            // The server may answer and close before the whole request is written (431).
        }
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var received = false
        while true {
            let count: Int
            do {
                count = try socket.receive(into: &buffer)
            } catch let error as SocketError where error.code == ECONNRESET && received {
                // A reset after the response arrived (unread request bytes) still leaves a response.
                break
            }
            if count == 0 { break }
            received = true
            consume(buffer[0..<count])
        }
    }

    /// The bytes of a request with no body.
    public static func request(method: String = "GET", path: String, host: String, headers: [(String, String)] = [], keepAlive: Bool) -> [UInt8] {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        if !keepAlive { request += "Connection: close\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        return Array(request.utf8)
    }
}
