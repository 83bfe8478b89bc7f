import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ServiceLifecycle
import Synchronization
import SyncmonContract
import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
import SyncmonWeb
import SyncmonGzip
import SyncmonSystemd
#endif

/// The HTTP listener (`--listen`, docs/configuration.md): `/`, `/metrics`, `/healthz`, `/api/v1/status`.
///
/// With a web configuration (docs/configuration.md, "Web configuration") every listener serves
/// TLS and/or asks for a password on every path; SIGHUP swaps it for new connections without
/// rebinding. Requests are small and answered from a snapshot of the state model, so the handler runs on
/// the event loop; `/metrics` is rendered (and gzipped) on threads of its own while the
/// event loop sends it. Request heads over the limit get 431, slow requests are cut off after
/// the read timeout, and gzip is used when the client asks for it.
package struct HTTPService: Service {
    let addresses: [String]
    let router: HTTPRouter
    let group: any EventLoopGroup
    let clock: any ServiceClock
    let configuration: DaemonConfiguration
    let readiness: ReadinessLatch
    let web: WebSecurityHolder
    let logger: Logger

    package init(
        configuration: DaemonConfiguration,
        router: HTTPRouter,
        group: any EventLoopGroup,
        clock: any ServiceClock,
        readiness: ReadinessLatch,
        web: WebSecurityHolder? = nil,
        logger: Logger
    ) {
        self.web = web ?? WebSecurityHolder(configuration.web)
        self.addresses = configuration.listen
        self.configuration = configuration
        self.router = router
        self.group = group
        self.clock = clock
        self.readiness = readiness
        self.logger = logger
    }

    package func run() async throws {
        let router = self.router
        let clock = self.clock
        // Rendering threads of their own: a renderer waits for the socket to drain, and a
        // waiting thread must not be one of the global pool's, where the daemon's async
        // services (the watchdog among them) run. A client that stops reading is cut off by
        // the read timeout, which ends the wait; four threads mean it takes four such clients
        // at once to hold up a scrape (for at most the read timeout).
        let renderers = NIOThreadPool(numberOfThreads: 4)
        renderers.start()
        defer { renderers.shutdownGracefully { _ in } }
        // bcrypt for credentials not in the cache: one thread, so a burst of guesses costs one
        // core at most and never holds up the event loop (exporter-toolkit serialises it too).
        let hashers = NIOThreadPool(numberOfThreads: 1)
        hashers.start()
        defer { hashers.shutdownGracefully { _ in } }
        let web = self.web
        let headLimit = self.configuration.maximumRequestHeadSize
        let timeout = TimeAmount.microseconds(self.configuration.requestReadTimeout.microseconds)
        let bootstrap = ServerBootstrap(group: self.group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(readTimeout: timeout))
                    // The web configuration current when the connection is accepted: after a
                    // SIGHUP, new connections get the new certificate.
                    if let tls = web.current?.makeServerHandler() {
                        try pipeline.addHandler(PlainHTTPRefuser())
                        try pipeline.addHandler(tls)
                    }
                    try pipeline.addHandler(RequestHeadLimiter(limit: headLimit))
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(HTTPRequestHandler(router: router, clock: clock, renderers: renderers, web: web, hashers: hashers))
                }
            }
        var servers: [any Channel] = []
        for address in self.addresses {
            let server = try await self.bind(address, with: bootstrap)
            let security = web.current
            self.logger.info(
                security?.tlsContext != nil ? "serving HTTPS" : "serving HTTP",
                metadata: [
                    SyncmonMetadataKey.listen: "\(Self.describe(server.localAddress) ?? address)",
                    SyncmonMetadataKey.basicAuth: "\(security?.authenticator != nil)",
                ]
            )
            servers.append(server)
        }
        let urlFile = ListenURLFile(eventsSocket: self.configuration.eventsSocket)
        urlFile.write(servers.first?.localAddress, tls: web.current?.tlsContext != nil, logger: self.logger)
        self.readiness.arrive()
        try? await gracefulShutdown()
        for server in servers { try? await server.close() }
        urlFile.remove()
    }

    /// Binds one listener. A user's daemon left on the default address moves to the next free
    /// port of ``ListenAddress/fallbackPorts`` when a system daemon (or anything) holds 9478
    /// (docs/user-sessions.md); an address the operator chose is never moved.
    private func bind(_ address: String, with bootstrap: ServerBootstrap) async throws -> any Channel {
        let (host, port) = try Self.split(address)
        do {
            return try await bootstrap.bind(host: host, port: port).get()
        } catch  where self.configuration.movesOffTakenDefaultPort && address == DefaultPaths.listenAddress && SystemErrorText.isAddressInUse(error) {
            for fallback in ListenAddress.fallbackPorts {
                guard let server = try? await bootstrap.bind(host: host, port: fallback).get() else { continue }
                self.logger.notice(
                    "the default port is taken: serving on the next free one",
                    metadata: [SyncmonMetadataKey.listen: "\(Self.describe(server.localAddress) ?? address)"]
                )
                return server
            }
            throw DaemonError.system(SystemErrorText.cannotListen(on: address, error))
        } catch {
            throw DaemonError.system(SystemErrorText.cannotListen(on: address, error))
        }
    }

    /// `127.0.0.1:9478` or `[::1]:9478`, as an operator writes it (not NIO's
    /// `[IPv4]127.0.0.1/127.0.0.1:9478`).
    static func describe(_ address: SocketAddress?) -> String? {
        guard let address, let ip = address.ipAddress, let port = address.port else { return nil }
        return (ip.contains(":") ? "[\(ip)]" : ip) + ":\(port)"
    }

    /// `host:port`, `[v6]:port` or `:port` (all interfaces), checked with the setting.
    static func split(_ address: String) throws -> (host: String, port: Int) {
        do throws(SettingValueError) {
            let parsed = try ListenAddress.parse(address)
            return (parsed.host, parsed.port)
        } catch {
            throw DaemonError.configuration("listen: \(error.message)")
        }
    }
}

extension HTTPRequestHandler {
    /// Bodies smaller than this are sent as they are: gzip would save a few bytes for a header
    /// and a buffer's worth of work.
    static let smallestCompressedBody = 1024

    /// Writes a `/metrics` body as it is rendered: the rendering (and gzip, when asked) runs on a
    /// rendering thread, so the event loop sends the first pieces while the rest is written (on two
    /// cores the two overlap). Reading pauses meanwhile, so a pipelined request cannot interleave.
    func stream(
        _ streamed: HTTPRouter.StreamedMetrics,
        head: HTTPRequestHead,
        extraHeaders: [(String, String)],
        context: ChannelHandlerContext
    ) {
        let keepAlive = head.isKeepAlive
        let gzip = ContentCoding.acceptsGzip(head.headers["accept-encoding"])
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: streamed.contentType)
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        headers.add(name: "vary", value: "accept-encoding")
        if gzip { headers.add(name: "content-encoding", value: "gzip") }
        // No content-length: HTTP/1.1 gets chunked encoding; HTTP/1.0 ends with the connection.
        if !keepAlive || head.version.minor == 0 { headers.add(name: "connection", value: "close") }
        context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        context.flush()
        let channel = context.channel
        let closeAfter = !keepAlive || head.version.minor == 0
        channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        self.renderers.submit { _ in
            let writer = StreamedResponseWriter(channel: channel, gzip: gzip)
            streamed.render(writer)
            let rendered = writer.renderedBytes
            writer.finish().whenComplete { _ in
                Heap.releaseFreedMemory(after: rendered)
                if closeAfter {
                    channel.close(promise: nil)
                } else {
                    channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in channel.read() }
                }
            }
        }
    }
}

/// Answers 431 and closes when a request head grows past the limit (docs/configuration.md#limits: 8 KiB).
package final class RequestHeadLimiter: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer

    private let limit: Int
    /// Bytes of the current head so far, and how much of `\r\n\r\n` was just seen.
    private var headBytes = 0
    private var terminatorMatched = 0
    private var refused = false

    package init(limit: Int) {
        self.limit = limit
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !self.refused else { return }
        let buffer = self.unwrapInboundIn(data)
        let terminator: [UInt8] = [13, 10, 13, 10]
        for byte in buffer.readableBytesView {
            self.headBytes += 1
            if byte == terminator[self.terminatorMatched] {
                self.terminatorMatched += 1
                if self.terminatorMatched == 4 {
                    // A head ended; GET bodies are empty, so the next bytes start a new head.
                    self.headBytes = 0
                    self.terminatorMatched = 0
                }
            } else {
                self.terminatorMatched = byte == 13 ? 1 : 0
            }
            if self.headBytes > self.limit {
                self.refused = true
                var response = context.channel.allocator.buffer(capacity: 128)
                response.writeString("HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                let channel = context.channel
                context.writeAndFlush(NIOAny(response)).whenComplete { _ in channel.close(promise: nil) }
                return
            }
        }
        context.fireChannelRead(data)
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The read timeout: a request that does not arrive in time is cut off.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Turns HTTP/1 parts into a route call and writes the response, after `basic_auth_users`
/// (when set) accepted the request's credentials.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let router: HTTPRouter
    /// The time `/metrics` and the status are computed at.
    private let clock: any ServiceClock
    private let renderers: NIOThreadPool
    private let web: WebSecurityHolder
    private let hashers: NIOThreadPool
    private var head: HTTPRequestHead?
    /// Set when the connection went away while bcrypt ran.
    private var removed = false

    init(router: HTTPRouter, clock: any ServiceClock, renderers: NIOThreadPool, web: WebSecurityHolder, hashers: NIOThreadPool) {
        self.router = router
        self.clock = clock
        self.renderers = renderers
        self.web = web
        self.hashers = hashers
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.removed = true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head = self.head else { return }
            self.head = nil
            let security = self.web.current
            let extraHeaders = security?.headers ?? []
            guard let authenticator = security?.authenticator else {
                self.serve(head: head, extraHeaders: extraHeaders, context: context)
                return
            }
            switch authenticator.decide(authorization: head.headers.first(name: "authorization")) {
            case .allowed:
                self.serve(head: head, extraHeaders: extraHeaders, context: context)
            case .denied:
                self.unauthorized(head: head, extraHeaders: extraHeaders, context: context)
            case .needsVerification(let credentials):
                // bcrypt takes tens of milliseconds: on the hashing thread, while this loop
                // serves other connections. HTTPServerPipelineHandler holds back a pipelined
                // next request until this response has ended.
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                self.hashers.runIfActive(eventLoop: context.eventLoop) { authenticator.verify(credentials) }
                    .whenComplete { result in
                        let (handler, context) = bound.value
                        guard !handler.removed else { return }
                        if case .success(true) = result {
                            handler.serve(head: head, extraHeaders: extraHeaders, context: context)
                        } else {
                            handler.unauthorized(head: head, extraHeaders: extraHeaders, context: context)
                        }
                    }
            }
        }
    }

    /// 401 with a Basic challenge, as exporter-toolkit answers.
    private func unauthorized(head: HTTPRequestHead, extraHeaders: [(String, String)], context: ChannelHandlerContext) {
        var response = HTTPResponse.text(.unauthorized, "Unauthorized\n")
        response.headers.append(("www-authenticate", "Basic"))
        self.write(response, head: head, extraHeaders: extraHeaders, context: context)
    }

    private func serve(head: HTTPRequestHead, extraHeaders: [(String, String)], context: ChannelHandlerContext) {
        let request = HTTPRequest(head: head)
        let now = self.clock.wallTime()
        if let streamed = self.router.streamedMetrics(for: request, now: now) {
            self.stream(streamed, head: head, extraHeaders: extraHeaders, context: context)
            return
        }
        // Notification requests may wait for a delivery: answered from a task, written back here.
        if let answer = self.router.notifyResponse(for: request, now: now) {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            Task {
                let response = await answer()
                eventLoop.execute {
                    let (handler, context) = bound.value
                    guard !handler.removed else { return }
                    handler.write(response, head: head, extraHeaders: extraHeaders, context: context)
                }
            }
            return
        }
        self.write(self.router.respond(to: request, now: now), head: head, extraHeaders: extraHeaders, context: context)
    }

    /// Writes a whole response, gzipped (through the same compressor as `/metrics`) when the
    /// client accepts it and the body is large enough to gain from it.
    private func write(_ response: HTTPResponse, head: HTTPRequestHead, extraHeaders: [(String, String)], context: ChannelHandlerContext) {
        var response = response
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: response.contentType)
        if response.body.count >= Self.smallestCompressedBody {
            headers.add(name: "vary", value: "accept-encoding")
            if ContentCoding.acceptsGzip(head.headers["accept-encoding"]) {
                response.body = GzipCompressor.gzip(response.body)
                headers.add(name: "content-encoding", value: "gzip")
            }
        }
        headers.add(name: "content-length", value: String(response.body.count))
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "connection", value: "close") }
        let responseHead = HTTPResponseHead(version: head.version, status: response.status, headers: headers)
        context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
        if head.method != .HEAD {
            var buffer = context.channel.allocator.buffer(capacity: response.body.count)
            buffer.writeBytes(response.body)
            context.write(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let channel = context.channel
        let written = response.body.count
        context.writeAndFlush(self.wrapOutboundOut(.end(nil))).whenComplete { _ in
            Heap.releaseFreedMemory(after: written)
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
