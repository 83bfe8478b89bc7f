import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif
import SyncmonCore
import SyncmonDaemon

/// Fetches `/api/v1/status` from a running daemon with a minimal blocking HTTP/1.1 GET (the
/// command runs once and exits; a connection pool would be wasted).
struct StatusClient {
    /// Why the daemon could not be asked.
    struct Unreachable: Error, CustomStringConvertible {
        var description: String
    }

    let url: String
    let timeoutSeconds: Int

    /// The status document for `engine` (or all engines).
    func fetch(engine: String?) throws -> (json: String, now: Timestamp, rows: [StatusRow]) {
        let (host, port, basePath) = try self.parse()
        var path = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        path += "/api/v1/status"
        if let engine {
            // Engine names are [A-Za-z0-9._-] only, so nothing needs percent-encoding.
            guard EngineName.isValid(engine.utf8) else { throw Unreachable(description: "engine names are 1-64 characters of [A-Za-z0-9._-], not \(engine)") }
            path += "?engine=" + engine
        }
        let body = try self.get(host: host, port: port, path: path)
        let document: StatusDocument
        do {
            document = try StatusDocument(json: Array(body.utf8))
        } catch {
            throw Unreachable(description: "\(self.url) did not answer with syncmon status JSON (\(error))")
        }
        return (body, document.now, document.engines)
    }

    private func parse() throws -> (String, Int, String) {
        guard let components = URLComponents(string: self.url), components.scheme == "http", let host = components.host else {
            throw Unreachable(description: "--url must be http://host:port, not \(self.url)")
        }
        return (host, components.port ?? 80, components.path.isEmpty ? "/" : components.path)
    }

    private func get(host: String, port: Int, path: String) throws -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else {
            throw Unreachable(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(result) }
        var descriptor: Int32 = -1
        var lastError = ECONNREFUSED
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if descriptor >= 0 {
                var timeout = timeval(tv_sec: self.timeoutSeconds, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                if connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { break }
                lastError = errno
                close(descriptor)
                descriptor = -1
            }
            candidate = info.pointee.ai_next
        }
        guard descriptor >= 0 else {
            throw Unreachable(description: "cannot reach the daemon at \(self.url): \(String(cString: strerror(lastError))) (is 'syncmon daemon' running?)")
        }
        defer { close(descriptor) }
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Unreachable(description: "no answer from \(self.url): \(String(cString: strerror(errno)))")
            }
            response += buffer[0..<count]
        }
        guard let split = (0..<max(0, response.count - 3)).first(where: { response[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }) else {
            throw Unreachable(description: "\(self.url) sent no HTTP response")
        }
        let statusLine = String(decoding: response[..<split].prefix { $0 != 13 }, as: UTF8.self)
        guard statusLine.split(separator: " ").dropFirst().first == "200" else {
            throw Unreachable(description: "\(self.url) answered \(statusLine)")
        }
        return String(decoding: response[(split + 4)...], as: UTF8.self)
    }
}
