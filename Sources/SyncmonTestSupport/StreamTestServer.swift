import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An engine's side of a subscribe source, for tests: a blocking socket server (TCP on
/// 127.0.0.1 with a kernel-chosen port, or a Unix stream socket) that runs `handler` on its own
/// thread for every connection. HTTP handlers read the request with
/// ``Connection/readRequest()``; every request is recorded in ``requests``.
public final class StreamTestServer: @unchecked Sendable {
    /// An HTTP request as the server read it.
    public struct Request: Sendable {
        public var method: String
        public var target: String
        /// Header names lowercased.
        public var headers: [String: String]

        public var path: String { String(self.target.prefix { $0 != "?" }) }

        /// The query parameters (not percent-decoded).
        public var query: [String: String] {
            guard let question = self.target.firstIndex(of: "?") else { return [:] }
            var result: [String: String] = [:]
            for item in self.target[self.target.index(after: question)...].split(separator: "&") {
                let parts = item.split(separator: "=", maxSplits: 1)
                result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            return result
        }
    }

    /// One accepted connection.
    public final class Connection: @unchecked Sendable {
        let descriptor: Int32
        public let server: StreamTestServer
        private var buffered: [UInt8] = []
        private var closed = false

        init(descriptor: Int32, server: StreamTestServer) {
            self.descriptor = descriptor
            self.server = server
        }

        /// Reads an HTTP request head (up to the blank line) and records it.
        public func readRequest() throws -> Request {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let end = self.headEnd() {
                    let head = String(decoding: self.buffered[..<end], as: UTF8.self)
                    self.buffered.removeFirst(end + 4)
                    var lines = head.components(separatedBy: "\r\n")
                    let requestLine = lines.removeFirst().split(separator: " ")
                    guard requestLine.count >= 2 else { throw TestSupportError("bad request line: \(head)") }
                    var headers: [String: String] = [:]
                    for line in lines {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    let request = Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
                    self.server.record(request)
                    return request
                }
                let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw TestSupportError("connection closed before the request ended") }
                self.buffered.append(contentsOf: chunk[..<count])
            }
        }

        private func headEnd() -> Int? {
            guard self.buffered.count >= 4 else { return nil }
            for index in 0...(self.buffered.count - 4)
            where self.buffered[index] == 13 && self.buffered[index + 1] == 10 && self.buffered[index + 2] == 13 && self.buffered[index + 3] == 10 {
                return index
            }
            return nil
        }

        /// Writes all of `text`; `false` once the peer is gone.
        @discardableResult
        public func write(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { send(self.descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }

        /// Writes an HTTP/1.1 response head for a body that lasts until the connection closes.
        @discardableResult
        public func writeStreamingHead(contentType: String, status: String = "200 OK") -> Bool {
            self.write("HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n")
        }

        /// Keeps the connection open until the server stops or the peer closes it.
        public func hold() {
            var chunk = [UInt8](repeating: 0, count: 512)
            while !self.server.isStopped {
                var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 50)
                if ready > 0 {
                    let count = chunk.withUnsafeMutableBytes { recv(self.descriptor, $0.baseAddress, $0.count, 0) }
                    if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
                }
            }
        }

        /// Closes the connection (the daemon sees the stream end).
        public func close() {
            guard !self.closed else { return }
            self.closed = true
            shutdown(self.descriptor, Int32(SHUT_RDWR))
            Glibc.close(self.descriptor)
        }
    }

    /// The TCP port, or 0 for a Unix socket server.
    public let port: Int
    /// The Unix socket path, or `nil` for TCP.
    public let path: String?
    private let listener: Int32
    private let handler: @Sendable (Connection) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var recorded: [Request] = []
    private var accepted = 0

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(self.port)" }

    public var isStopped: Bool { self.lock.withLock { self.stopped } }
    /// The requests read so far, in order.
    public var requests: [Request] { self.lock.withLock { self.recorded } }
    /// Connections accepted so far.
    public var connectionCount: Int { self.lock.withLock { self.accepted } }

    /// A TCP server on 127.0.0.1 (the kernel picks the port).
    public static func tcp(handler: @escaping @Sendable (Connection) -> Void) throws -> StreamTestServer {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw TestSupportError("bind/listen: \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let server = StreamTestServer(listener: descriptor, port: Int(UInt16(bigEndian: address.sin_port)), path: nil, handler: handler)
        server.start()
        return server
    }

    /// A Unix stream socket server at `path` (replacing a stale socket file).
    public static func unix(path: String, handler: @escaping @Sendable (Connection) -> Void) throws -> StreamTestServer {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        unlink(path)
        do {
            try UnixAddress.withAddress(path) { address, length in
                guard bind(descriptor, address, length) == 0, listen(descriptor, 64) == 0 else {
                    throw TestSupportError("bind/listen \(path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        let server = StreamTestServer(listener: descriptor, port: 0, path: path, handler: handler)
        server.start()
        return server
    }

    private init(listener: Int32, port: Int, path: String?, handler: @escaping @Sendable (Connection) -> Void) {
        self.listener = listener
        self.port = port
        self.path = path
        self.handler = handler
    }


    private func start() {
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    private func acceptLoop() {
        while !self.isStopped {
            var descriptor = pollfd(fd: self.listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let client = accept(self.listener, nil, nil)
            guard client >= 0 else { continue }
            let connection = Connection(descriptor: client, server: self)
            let admitted = self.lock.withLock { () -> Bool in
                guard !self.stopped else { return false }
                self.accepted += 1
                return true
            }
            guard admitted else {
                connection.close()
                break
            }
            let handler = self.handler
            let thread = Thread {
                handler(connection)
                connection.close()
            }
            thread.start()
        }
        Glibc.close(self.listener)
    }

    func record(_ request: Request) {
        self.lock.withLock { self.recorded.append(request) }
    }

    /// Stops accepting, and ends held connections; the socket file of a Unix server is removed.
    public func stop() {
        let first = self.lock.withLock { () -> Bool in
            defer { self.stopped = true }
            return !self.stopped
        }
        guard first else { return }
        // The accept loop closes the listener within 50 ms.
        if let path = self.path { unlink(path) }
    }
}
