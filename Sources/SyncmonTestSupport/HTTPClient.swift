import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client for tests: one request per connection (`Connection:
/// close`), the whole response read to EOF, chunked bodies decoded. Enough to see exactly what
/// the daemon put on the wire (status, headers, raw possibly-compressed body).
public enum HTTPClient {
    /// A parsed response.
    public struct Response: Sendable {
        public var status: Int
        public var reason: String
        /// Header names lower-cased, in order; a name may repeat.
        public var headers: [(name: String, value: String)]
        /// The body as sent (after de-chunking, before any content decoding).
        public var body: [UInt8]

        /// The first value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            let name = name.lowercased()
            return self.headers.first { $0.name == name }?.value
        }

        public var text: String { String(decoding: self.body, as: UTF8.self) }

        /// The body parsed as a JSON object.
        public func jsonObject() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(self.body)) as? [String: Any] else {
                throw TestSupportError("body is not a JSON object: \(self.text)")
            }
            return object
        }
    }

    /// `GET path` on 127.0.0.1:`port` with extra `headers`.
    public static func get(port: Int, path: String, headers: [(String, String)] = [], method: String = "GET") throws -> Response {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        return try self.raw(port: port, request: Array(request.utf8))
    }

    /// Sends `request` bytes as they are and parses what comes back.
    public static func raw(port: Int, request: [UInt8], timeoutSeconds: Int = 10) throws -> Response {
        let bytes = try self.exchange(port: port, request: request, timeoutSeconds: timeoutSeconds)
        // A response to HEAD announces a length but carries no body.
        return try self.parse(bytes, hasBody: !request.starts(with: Array("HEAD ".utf8)))
    }

    /// Connects, writes `request`, reads until the server closes.
    public static func exchange(port: Int, request: [UInt8], timeoutSeconds: Int = 10) throws -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSupportError("connect 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < request.count {
            let written = request.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                // The server may answer and close before the whole request is written (431).
                if errno == EPIPE || errno == ECONNRESET { break }
                throw TestSupportError("send: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                // A reset after the response arrived (unread request bytes) still leaves a response.
                if errno == ECONNRESET, !response.isEmpty { break }
                throw TestSupportError("recv: \(String(cString: strerror(errno)))")
            }
            response += buffer[0..<count]
        }
        return response
    }

    /// Parses a complete HTTP/1.1 response.
    public static func parse(_ bytes: [UInt8], hasBody: Bool = true) throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.firstRange(of: separator) else {
            throw TestSupportError("no complete response head in \(bytes.count) bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw TestSupportError("bad status line: \(statusLine)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(bytes[headEnd.upperBound...])
        if !hasBody {
            body = []
        } else if headers.contains(where: { $0.name == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            body = try self.dechunk(body)
        } else if let length = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }) {
            guard body.count >= length else { throw TestSupportError("body has \(body.count) of \(length) bytes") }
            body = Array(body.prefix(length))
        }
        return Response(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: body)
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { throw TestSupportError("bad chunk header") }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw TestSupportError("bad chunk size \(sizeText)")
            }
            index = lineEnd.upperBound
            if size == 0 { break }
            guard index + size <= bytes.count else { throw TestSupportError("truncated chunk") }
            result += bytes[index..<(index + size)]
            index += size + 2
        }
        return result
    }
}
