import Foundation
import SyncmonSockets

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
        let socket: BlockingSocket
        public let server: StreamTestServer
        private var buffered: [UInt8] = []

        init(socket: BlockingSocket, server: StreamTestServer) {
            self.socket = socket
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
                let count = (try? self.socket.receive(into: &chunk)) ?? 0
                guard count > 0 else { throw TestSupportError("connection closed before the request ended") }
                self.buffered.append(contentsOf: chunk[..<count])
            }
        }

        /// Reads the `length` bytes of a request body that follow the head (`content-length`):
        /// what a webhook receiver was sent.
        public func readBody(length: Int) throws -> [UInt8] {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while self.buffered.count < length {
                let count = (try? self.socket.receive(into: &chunk)) ?? 0
                guard count > 0 else { throw TestSupportError("connection closed before the body ended") }
                self.buffered.append(contentsOf: chunk[..<count])
            }
            defer { self.buffered.removeFirst(length) }
            return Array(self.buffered[..<length])
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
            (try? self.socket.send(text)) != nil
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
                guard self.socket.waitUntilReadable(milliseconds: 50) else { continue }
                do {
                    if try self.socket.receive(into: &chunk) == 0 { return }
                } catch let error as SocketError where error.code == EAGAIN {
                    continue
                } catch {
                    return
                }
            }
        }

        /// Closes the connection (the daemon sees the stream end).
        public func close() {
            self.socket.shutdown()
            self.socket.close()
        }
    }

    /// The TCP port, or 0 for a Unix socket server.
    public let port: Int
    /// The Unix socket path, or `nil` for TCP.
    public let path: String?
    private let listener: BlockingSocket
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
        let listener = try BlockingSocket.listen(on: .loopback(port: 0))
        let server = StreamTestServer(listener: listener, port: try listener.localPort(), path: nil, handler: handler)
        server.start()
        return server
    }

    /// A Unix stream socket server at `path` (replacing a stale socket file).
    public static func unix(path: String, handler: @escaping @Sendable (Connection) -> Void) throws -> StreamTestServer {
        let server = StreamTestServer(listener: try BlockingSocket.listen(on: .unix(path: path)), port: 0, path: path, handler: handler)
        server.start()
        return server
    }

    private init(listener: BlockingSocket, port: Int, path: String?, handler: @escaping @Sendable (Connection) -> Void) {
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
            guard self.listener.waitUntilReadable(milliseconds: 50), let client = try? self.listener.accept() else { continue }
            let connection = Connection(socket: client, server: self)
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
        self.listener.close()
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
