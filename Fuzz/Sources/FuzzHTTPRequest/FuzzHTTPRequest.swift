import FuzzSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
import SyncmonCore
import SyncmonDaemon
import SyncmonExposition
import SyncmonGzip

/// The HTTP server's request handling, pure pieces and pipeline.
///
/// The input's first lines are taken as a request target, an `Accept` and two
/// `Accept-Encoding` values for the pure parsers (target → path and query, format and gzip
/// negotiation); then the whole input is written as raw bytes into an `EmbeddedChannel` with
/// the daemon's `RequestHeadLimiter` and NIO's HTTP/1 server pipeline, every complete head
/// answered by the router as the daemon does. Invariants: the path is the target up to its
/// `?`; gzip is never chosen without `gzip` or `*` in the header; nothing traps.
@c(LLVMFuzzerTestOneInput)
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let lines = input.pieces(separatedBy: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    func line(_ index: Int) -> String? { index < lines.count ? lines[index] : nil }

    // The request target.
    let uri = line(0) ?? ""
    var headers = HTTPHeaders()
    if let accept = line(1) { headers.add(name: "accept", value: accept) }
    let request = HTTPRequest(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers))
    invariant(!request.path.contains("?"), "path \(request.path) holds a ?")
    invariant(uri.hasPrefix(request.path), "path \(request.path) is not the start of \(uri)")
    invariant(request.accept == line(1), "accept header lost")

    // Accept and Accept-Encoding.
    _ = ExpositionFormat.negotiate(accept: line(1))
    let encodings = [line(2), line(3)].compactMap { $0 }
    if ContentCoding.acceptsGzip(encodings) {
        invariant(encodings.contains { $0.lowercased().contains("gzip") || $0.contains("*") }, "gzip from \(encodings)")
    }

    // The raw bytes through the server pipeline.
    let channel = EmbeddedChannel()
    do {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(RequestHeadLimiter(limit: 1024))
        try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
        try pipeline.addHandler(RouteHandler())
    } catch {
        fatalError("pipeline setup: \(error)")
    }
    var buffer = channel.allocator.buffer(capacity: input.bytes.count)
    buffer.writeBytes(input.bytes)
    // Malformed requests are answered (400, 431) and closed; the error itself is fine.
    _ = try? channel.writeInbound(buffer)
    while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
    _ = try? channel.finish()
    return 0
}

/// The router every daemon request goes to, over an empty state model.
private let router = HTTPRouter(
    store: MonitorStore(configuration: MonitorConfiguration()),
    renderer: MetricsRenderer(version: "fuzz", revision: "fuzz")
)

/// Answers each complete request head as the daemon's handler does (`/metrics` only
/// negotiated, not rendered: its body depends on the process, not on the input).
private final class RouteHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = self.unwrapInboundIn(data) else { return }
        let request = HTTPRequest(head: head)
        let response: HTTPResponse
        if request.path == "/metrics" {
            let format = ExpositionFormat.negotiate(accept: request.accept)
            _ = ContentCoding.acceptsGzip(head.headers["accept-encoding"])
            response = HTTPResponse(contentType: format.contentType, body: [])
        } else {
            response = router.respond(to: request, now: Timestamp(seconds: 1_700_000_000))
        }
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: response.contentType)
        headers.add(name: "content-length", value: String(response.body.count))
        context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: response.status, headers: headers))), promise: nil)
        var body = context.channel.allocator.buffer(capacity: response.body.count)
        body.writeBytes(response.body)
        context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}
