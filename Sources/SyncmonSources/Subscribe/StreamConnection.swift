import NIOCore
import NIOHTTP1
import NIOPosix
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonLock

#if canImport(Glibc)
import Glibc
#endif

/// How one connection of a `unix:` or `http://` source went.
struct AttemptOutcome: Sendable {
    /// Non-blank lines (or SSE events) applied.
    var delivered = 0
    /// Why it ended.
    var reason: String?
    /// When the connection was established (HTTP: answered with 2xx), on the source's clock.
    var connectedAt: MonotonicInstant?
}

/// Shared between a connection's handler (on its event loop) and the source's task.
final class AttemptRecord: Sendable {
    private let state = Locked(AttemptOutcome())

    func delivered(_ count: Int) {
        guard count > 0 else { return }
        self.state.withLock { $0.delivered += count }
    }

    func connected(at instant: MonotonicInstant) {
        self.state.withLock { $0.connectedAt = instant }
    }

    /// Records why the connection ends; the first reason wins.
    func ended(_ reason: String) {
        self.state.withLock { state in
            if state.reason == nil { state.reason = reason }
        }
    }

    var outcome: AttemptOutcome { self.state.withLock { $0 } }
}

/// Where a stream source connects.
enum StreamTarget: Sendable, Equatable {
    case unix(path: String)
    /// `target` is the request target: path plus query.
    case http(host: String, port: Int, target: String)
}

/// One connection of a `unix:` or `http://` source: connect, read until the peer closes (or an
/// error, or cancellation), return how it went. Cancellation closes the channel at once, even
/// while connecting.
struct StreamConnection: Sendable {
    let target: StreamTarget
    /// The URL as configured, for messages.
    let url: String
    let context: SourceContext
    let resume: StreamResume
    let connectTimeout: TimeAmount

    func run() async -> AttemptOutcome {
        let record = AttemptRecord()
        let context = self.context
        let health = context.health
        let resume = self.resume
        let lineLength = context.maximumLineLength
        let url = self.url
        var bootstrap = ClientBootstrap(group: context.group).connectTimeout(self.connectTimeout)
        let connect: EventLoopFuture<any Channel>
        switch self.target {
        case .unix(let path):
            bootstrap = bootstrap.channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let ingest = context.makeIngest()
                    try channel.pipeline.syncOperations.addHandler(
                        LineStreamHandler(ingest: ingest, health: health, record: record, detail: "unix:\(path)")
                    )
                }
            }
            connect = bootstrap.connect(unixDomainSocketPath: path)
        case .http(let host, let port, let target):
            var headers = HTTPHeaders()
            let hostHeader = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: port == 80 ? hostHeader : "\(hostHeader):\(port)")
            headers.add(name: "User-Agent", value: "syncmon")
            headers.add(name: "Accept", value: "text/event-stream, application/x-ndjson;q=0.9, */*;q=0.5")
            headers.add(name: "Cache-Control", value: "no-cache")
            let lastEventID = resume.lastEventIDHeader
            if let lastEventID { headers.add(name: "Last-Event-ID", value: lastEventID) }
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: resume.requestTarget(for: target), headers: headers)
            let isResumed = lastEventID != nil
            bootstrap =
                bootstrap
                // A peer that vanished without a FIN (host down, NAT state lost) is noticed in
                // about two minutes, not the kernel's default two hours.
                .channelOption(.socketOption(.so_keepalive), value: 1)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPIDLE)), value: 60)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPINTVL)), value: 15)
                .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPCNT)), value: 4)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let ingest = context.makeIngest(highestSequence: resume.current.highestSequence)
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPStreamHandler(
                                request: head,
                                ingest: ingest,
                                health: health,
                                record: record,
                                resume: resume,
                                checksReplay: isResumed,
                                maximumLineLength: lineLength,
                                lastEventID: lastEventID ?? "",
                                url: url
                            )
                        )
                    }
                }
            connect = bootstrap.connect(host: host, port: port)
        }

        let channel: any Channel
        do {
            channel = try await Self.value(of: connect)
        } catch is CancellationError {
            connect.whenSuccess { $0.close(promise: nil) }
            record.ended("shutting down")
            return record.outcome
        } catch {
            record.ended(Self.describe(error))
            return record.outcome
        }
        await withTaskCancellationHandler {
            try? await channel.closeFuture.get()
        } onCancel: {
            record.ended("shutting down")
            channel.close(promise: nil)
        }
        return record.outcome
    }

    /// Awaits `future`, giving up with `CancellationError` as soon as the task is cancelled.
    static func value<T: Sendable>(of future: EventLoopFuture<T>) async throws -> T {
        let waiter = Waiter<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard waiter.install(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                future.whenComplete { waiter.resume(with: $0) }
            }
        } onCancel: {
            waiter.cancel()
        }
    }

    /// A one-shot continuation that either the future or cancellation resumes.
    private final class Waiter<T: Sendable>: Sendable {
        private let state = Locked<(continuation: CheckedContinuation<T, any Error>?, cancelled: Bool)>((nil, false))

        /// Stores the continuation; `false` when cancelled already.
        func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
            self.state.withLock { state in
                guard !state.cancelled else { return false }
                state.continuation = continuation
                return true
            }
        }

        func resume(with result: Result<T, any Error>) {
            let continuation = self.state.withLock { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(with: result)
        }

        func cancel() {
            let continuation = self.state.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// A short reason for logs: "Connection refused", not NIO's whole error value.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot resolve the host name \(error.host)" }
            if let first = error.connectionErrors.first { return Self.describe(first.error) }
            return "cannot connect to \(error.host):\(error.port)"
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return "connect timed out" }
        return SystemErrorText.words(error)
    }
}

/// A `unix:` source's connection: lines in, nothing out.
final class LineStreamHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let ingest: any SourceIngest
    private let health: SourceHealth
    private let record: AttemptRecord
    private let detail: String

    init(ingest: any SourceIngest, health: SourceHealth, record: AttemptRecord, detail: String) {
        self.ingest = ingest
        self.health = health
        self.record = record
        self.detail = detail
    }

    func channelActive(context: ChannelHandlerContext) {
        self.record.connected(at: self.ingest.clock.monotonicTime())
        self.health.connected(self.detail)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = self.unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { self.ingest.feed($0) }
        self.record.delivered(self.ingest.takeDelivered())
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.ingest.finish()
        self.record.delivered(self.ingest.takeDelivered())
        self.record.ended("the engine closed the connection")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.record.ended(StreamConnection.describe(error))
        context.close(promise: nil)
    }
}

/// An `http://` source's connection: one streaming GET, answered with NDJSON or SSE.
final class HTTPStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private enum Mode {
        case awaitingHead
        case ndjson
        case sse
        case discarding
    }

    private let request: HTTPRequestHead
    private let ingest: any SourceIngest
    private let health: SourceHealth
    private let record: AttemptRecord
    private let resume: StreamResume
    private let url: String
    private var mode = Mode.awaitingHead
    private var parser: ServerSentEventParser
    /// Still checking for replayed events at the start of a resumed SSE connection.
    private var checksReplay: Bool
    private var replayed = 0

    init(
        request: HTTPRequestHead,
        ingest: any SourceIngest,
        health: SourceHealth,
        record: AttemptRecord,
        resume: StreamResume,
        checksReplay: Bool,
        maximumLineLength: Int,
        lastEventID: String,
        url: String
    ) {
        self.request = request
        self.ingest = ingest
        self.health = health
        self.record = record
        self.resume = resume
        self.checksReplay = checksReplay
        self.parser = ServerSentEventParser(maximumDataLength: maximumLineLength, lastEventID: lastEventID)
        self.url = url
    }

    /// How long the server may take to answer the request (not to send events).
    static let headTimeout = TimeAmount.seconds(30)
    private var headTimer: Scheduled<Void>?

    func channelActive(context: ChannelHandlerContext) {
        context.write(self.wrapOutboundOut(.head(self.request)), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        self.headTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.headTimeout) {
            guard self.mode == .awaitingHead else { return }
            self.record.ended("no answer within \(Self.headTimeout.nanoseconds / 1_000_000_000) s")
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.headTimer?.cancel()
            self.headTimer = nil
            guard (200..<300).contains(head.status.code), head.status != .noContent else {
                self.record.ended("HTTP \(head.status.code) \(head.status.reasonPhrase)")
                self.mode = .discarding
                context.close(promise: nil)
                return
            }
            let contentType = head.headers.first(name: "content-type")?.lowercased() ?? ""
            let isSSE = contentType.hasPrefix("text/event-stream")
            self.mode = isSSE ? .sse : .ndjson
            self.resume.setKind(isSSE ? .sse : .ndjson)
            self.record.connected(at: self.ingest.clock.monotonicTime())
            self.health.connected("\(self.url), \(isSSE ? "text/event-stream" : "NDJSON")")
        case .body(let buffer):
            switch self.mode {
            case .ndjson:
                buffer.withUnsafeReadableBytes { self.ingest.feed($0) }
                self.record.delivered(self.ingest.takeDelivered())
                self.resume.advance(lastEventID: nil, highestSequence: self.ingest.highestSequence)
            case .sse:
                buffer.withUnsafeReadableBytes { bytes in
                    self.parser.feed(bytes) { self.handle($0) }
                }
                self.ingest.flush()
                self.record.delivered(self.ingest.takeDelivered())
                self.resume.advance(lastEventID: self.parser.lastEventID, highestSequence: self.ingest.highestSequence)
            case .awaitingHead, .discarding:
                break
            }
        case .end:
            switch self.mode {
            case .ndjson:
                self.ingest.finish()
                self.record.delivered(self.ingest.takeDelivered())
                self.resume.advance(lastEventID: nil, highestSequence: self.ingest.highestSequence)
            case .sse:
                self.parser.finish()
            case .awaitingHead, .discarding:
                break
            }
            self.record.ended("the server ended the response")
            context.close(promise: nil)
        }
    }

    private func handle(_ output: ServerSentEventParser.Output) {
        switch output {
        case .retry(let milliseconds):
            self.resume.setRetry(milliseconds: milliseconds)
        case .event(let event):
            if self.checksReplay {
                if let id = event.id, self.resume.wasSeen(id) {
                    self.replayed += 1
                    return
                }
                self.checksReplay = false
            }
            if event.isTooLarge {
                self.ingest.addTooLarge()
            } else {
                self.ingest.add(document: event.data)
            }
            if let id = event.id, !id.isEmpty { self.resume.remember(id) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.headTimer?.cancel()
        self.headTimer = nil
        self.record.ended(self.mode == .awaitingHead ? "the server closed the connection before answering" : "the server closed the connection")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.record.ended(StreamConnection.describe(error))
        context.close(promise: nil)
    }
}
