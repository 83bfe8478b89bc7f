extension BlockingHTTPClient {
    /// One connection kept open for many requests, as a monitoring client keeps it: the
    /// benchmark's status poller, where a new connection per poll would be most of the cost.
    /// Each response is framed by its `Content-Length` (none: no body).
    public final class Connection {
        private let socket: BlockingSocket
        private let host: String
        /// Bytes received beyond the last response.
        private var pending: [UInt8] = []
        private var buffer = [UInt8](repeating: 0, count: 65_536)

        /// Connects to 127.0.0.1:`port`; `timeout` bounds the connect and every send and receive.
        public init(port: Int, timeout: Duration? = .seconds(10)) throws {
            self.socket = try BlockingSocket.connect(to: .loopback(port: port), timeout: timeout)
            self.host = "127.0.0.1:\(port)"
        }

        /// `GET path` on the open connection.
        public func get(_ path: String, headers: [(String, String)] = []) throws -> Response {
            try self.socket.send(BlockingHTTPClient.request(path: path, host: self.host, headers: headers, keepAlive: true))
            let headEnd = try self.receiveHead()
            var response = try Response(head: self.pending[..<headEnd.lowerBound])
            guard !response.isChunked else { throw HTTPFailure("a chunked response on a kept-alive connection") }
            let end = headEnd.upperBound + (response.contentLength ?? 0)
            while self.pending.count < end { try self.receive() }
            response.body = Array(self.pending[headEnd.upperBound..<end])
            self.pending.removeFirst(end)
            return response
        }

        /// Where the next response head ends in `pending`, once it is all there.
        private func receiveHead() throws -> Range<Int> {
            while true {
                if let headEnd = self.pending.firstRange(of: Response.headTerminator) { return headEnd }
                try self.receive()
            }
        }

        /// Appends what arrives next to `pending`.
        private func receive() throws {
            let count = try self.socket.receive(into: &self.buffer)
            guard count > 0 else { throw HTTPFailure("\(self.host) closed the connection") }
            self.pending += self.buffer[0..<count]
        }
    }
}
