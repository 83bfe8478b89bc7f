import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import SyncmonContractTesting
import SyncmonCore
import SyncmonWeb
import Testing

@testable import SyncmonDaemon

/// The HTTP listener's pipeline, as `HTTPService` builds it for each connection, driven with raw
/// request bytes on an `NIOAsyncTestingChannel`: no socket, no port, and the same handlers
/// production runs — the head limiter, NIO's HTTP/1 server codec, the request handler, and for
/// `/metrics` the streamed path on a rendering thread.
@Suite("HTTP pipeline without sockets", .timeLimit(.minutes(1)))
struct HTTPPipelineTests {
    /// A connection's pipeline with a store that saw a realistic stream.
    final class Connection: Sendable {
        let channel: NIOAsyncTestingChannel
        let renderers: NIOThreadPool
        let hashers: NIOThreadPool

        init(headLimit: Int = 8192) async throws {
            let store = MonitorStore(configuration: MonitorConfiguration())
            for (seconds, text) in realisticSteps { feed(store, text + "\n", now: at(seconds)) }
            let router = HTTPRouter(store: store, renderer: MetricsRenderer(version: "1.2.3", revision: "abc"))
            self.renderers = NIOThreadPool(numberOfThreads: 1)
            self.hashers = NIOThreadPool(numberOfThreads: 1)
            self.renderers.start()
            self.hashers.start()
            let (renderers, hashers) = (self.renderers, self.hashers)
            // The router's time, as in `HTTPRouterTests`: just after the realistic steps.
            let clock = ManualClock(now: at(10))
            self.channel = try await NIOAsyncTestingChannel { channel in
                let pipeline = channel.pipeline.syncOperations
                try pipeline.addHandler(RequestHeadLimiter(limit: headLimit))
                try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                try pipeline.addHandler(
                    HTTPRequestHandler(router: router, clock: clock, renderers: renderers, web: WebSecurityHolder(nil), hashers: hashers)
                )
            }
        }

        /// Sends raw request bytes.
        func send(_ text: String) async throws {
            try await self.channel.writeInbound(self.channel.allocator.buffer(string: text))
        }

        /// Everything written until the response (head, body, end) is complete: a `Content-Length`
        /// body is read to its length, a chunked one to its last chunk.
        func response() async throws -> RawResponse {
            var bytes: [UInt8] = []
            while true {
                let data = try await self.channel.waitForOutboundWrite(as: IOData.self)
                switch data {
                case .byteBuffer(let buffer): bytes += buffer.readableBytesView
                case .fileRegion: Issue.record("a file region was written")
                }
                if let response = RawResponse(bytes) { return response }
            }
        }

        func close() async throws {
            _ = try? await self.channel.finish()
            try await self.renderers.shutdownGracefully()
            try await self.hashers.shutdownGracefully()
        }
    }

    /// An HTTP/1.1 response parsed from the bytes written, once they hold a whole one.
    struct RawResponse {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        init?(_ bytes: [UInt8]) {
            guard let headEnd = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
            let lines = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self).split(separator: "\r\n")
            guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ")[1]) else { return nil }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingPrefix(" ").description
            }
            let rest = Array(bytes[headEnd.upperBound...])
            if let length = headers["content-length"].flatMap({ Int($0) }) {
                guard rest.count >= length else { return nil }
                self.body = Array(rest.prefix(length))
            } else if headers["transfer-encoding"] == "chunked" {
                guard let body = Self.dechunked(rest) else { return nil }
                self.body = body
            } else {
                self.body = rest
            }
            self.status = status
            self.headers = headers
        }

        /// The body of a complete chunked encoding, or nil while its last chunk has not arrived.
        static func dechunked(_ bytes: [UInt8]) -> [UInt8]? {
            var body: [UInt8] = []
            var index = 0
            while let lineEnd = bytes[index...].firstRange(of: [13, 10]) {
                let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText, radix: 16) else { return nil }
                if size == 0 { return body }
                let start = lineEnd.upperBound
                guard bytes.count >= start + size + 2 else { return nil }
                body += bytes[start..<start + size]
                index = start + size + 2
            }
            return nil
        }

        var text: String { String(decoding: self.body, as: UTF8.self) }
    }

    @Test(
        "Each path answers through the whole pipeline",
        arguments: [
            ("/healthz", 200, "text/plain; charset=utf-8", "ok\n"),
            ("/", 200, "text/html; charset=utf-8", "/api/v1/status"),
            ("/api/v1/status", 200, "application/json", "\"engines\""),
            ("/nothing-here", 404, "text/plain; charset=utf-8", ""),
        ]
    )
    func paths(path: String, status: Int, contentType: String, fragment: String) async throws {
        let connection = try await Connection()
        try await connection.send("GET \(path) HTTP/1.1\r\nhost: localhost\r\n\r\n")
        let response = try await connection.response()
        #expect(response.status == status)
        #expect(response.headers["content-type"] == contentType)
        #expect(response.text.contains(fragment))
        try await connection.close()
    }

    @Test("/metrics is streamed in chunks from a rendering thread and ends with the exposition's last family")
    func streamedMetrics() async throws {
        let connection = try await Connection()
        try await connection.send("GET /metrics HTTP/1.1\r\nhost: localhost\r\n\r\n")
        let response = try await connection.response()
        #expect(response.status == 200)
        #expect(response.headers["transfer-encoding"] == "chunked")
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(response.text.contains("syncmon_status{engine=\"notes\",database=\"private\""))
        #expect(response.text.hasSuffix("\n"))
        try await connection.close()
    }

    @Test("/metrics with Accept-Encoding: gzip is gzipped as it streams")
    func streamedGzip() async throws {
        let connection = try await Connection()
        try await connection.send("GET /metrics HTTP/1.1\r\nhost: localhost\r\naccept-encoding: gzip\r\n\r\n")
        let response = try await connection.response()
        #expect(response.headers["content-encoding"] == "gzip")
        // The gzip magic number, then the deflate method.
        #expect(Array(response.body.prefix(3)) == [0x1f, 0x8b, 8])
        try await connection.close()
    }

    @Test("Two pipelined requests are answered in order on one connection")
    func pipelined() async throws {
        let connection = try await Connection()
        try await connection.send("GET /healthz HTTP/1.1\r\nhost: a\r\n\r\nGET /nothing HTTP/1.1\r\nhost: a\r\n\r\n")
        let first = try await connection.response()
        let second = try await connection.response()
        #expect(first.status == 200)
        #expect(second.status == 404)
        try await connection.close()
    }

    @Test("A request head over the limit gets 431 and the connection closes")
    func headLimit() async throws {
        let connection = try await Connection(headLimit: 256)
        let padding = String(repeating: "a", count: 300)
        try await connection.send("GET /healthz HTTP/1.1\r\nhost: localhost\r\nx-padding: \(padding)\r\n\r\n")
        let data = try await connection.channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(String(buffer: data).hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        try await connection.channel.closeFuture.get()
        try await connection.close()
    }

    @Test("A request that does not arrive within the read timeout is cut off")
    func readTimeout() async throws {
        let connection = try await Connection()
        try await connection.send("GET /healthz HTTP/1.1\r\n")
        connection.channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        try await connection.channel.closeFuture.get()
        try await connection.close()
    }

    @Test("On a TLS listener, a plain HTTP request gets Go's 400 sentence in the clear")
    func plainHTTPOnTLS() async throws {
        let channel = try await NIOAsyncTestingChannel { try $0.pipeline.syncOperations.addHandler(PlainHTTPRefuser()) }
        try await channel.writeInbound(channel.allocator.buffer(string: "GET /metrics HTTP/1.1\r\n\r\n"))
        let answer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(String(buffer: answer) == PlainHTTPRefuser.answer)
        try await channel.closeFuture.get()
    }

    @Test("On a TLS listener, a handshake passes on and the refuser leaves the pipeline")
    func handshakePasses() async throws {
        let channel = try await NIOAsyncTestingChannel {
            try $0.pipeline.syncOperations.addHandler(PlainHTTPRefuser(), name: "refuser")
        }
        try await channel.writeInbound(channel.allocator.buffer(bytes: [0x16, 3, 1, 0, 5]))
        let passed = try await channel.readInbound(as: ByteBuffer.self)
        #expect(passed.map { Array($0.readableBytesView) } == [0x16, 3, 1, 0, 5])
        await #expect(throws: ChannelPipelineError.notFound) { try await channel.pipeline.containsHandler(name: "refuser").get() }
        _ = try await channel.finish()
    }
}
