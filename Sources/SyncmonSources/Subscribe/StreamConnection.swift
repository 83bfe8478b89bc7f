import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonLock
import SyncmonStatusAPI

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
/// error, or cancellation), return how it went. Cancellation closes the connection at once, even
/// while connecting. An `http://` source's GET goes through AsyncHTTPClient (`client`, one per
/// source: ``makeClient(group:)``), its body streamed into an ``HTTPStreamReader``.
struct StreamConnection: Sendable {
    let target: StreamTarget
    /// The URL as configured, for messages.
    let url: String
    let context: SourceContext
    let resume: StreamResume
    let connectTimeout: TimeAmount
    /// The HTTP client of an `http://` source; nil for `unix:`.
    let client: HTTPClient?

    func run() async -> AttemptOutcome {
        switch self.target {
        case .unix(let path): await self.runUnix(path: path)
        case .http(let host, let port, let target): await self.runHTTP(host: host, port: port, target: target)
        }
    }

    /// The client an `http://` source's connections share: its connect timeout, no retry of a
    /// refused connection (the source's backoff retries), no redirect followed (a 3xx ends the
    /// attempt with its status), a connection per response, and TCP keepalive on every connection, so that a peer that
    /// vanished without a FIN (host down, NAT state lost) is noticed in about two minutes, not
    /// the kernel's default two hours; a quiet stream is never cut for being quiet.
    static func makeClient(group: any EventLoopGroup, connectTimeout: TimeAmount) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout),
            decompression: .disabled
        )
        configuration.connectionPool.retryConnectionEstablishment = false
        // A connection per stream, closed when its response ends: never a request sent down a
        // connection the engine may not read again.
        configuration.maximumUsesPerConnection = 1
        configuration.http1_1ConnectionDebugInitializer = { channel in
            channel.setOption(.socketOption(.so_keepalive), value: 1)
                .flatMap { channel.setOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPIDLE)), value: 60) }
                .flatMap { channel.setOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPINTVL)), value: 15) }
                .flatMap { channel.setOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPCNT)), value: 4) }
        }
        return HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
    }

    /// The streaming GET of `target` at `host:port`, resumed from `lastEventID` or `since=`.
    static func request(host: String, port: Int, target: String, resume: StreamResume) -> HTTPClientRequest {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var request = HTTPClientRequest(url: "http://\(authority)\(resume.requestTarget(for: target))")
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "syncmon")
        request.headers.add(name: "Accept", value: "text/event-stream, application/x-ndjson;q=0.9, */*;q=0.5")
        request.headers.add(name: "Cache-Control", value: "no-cache")
        if let lastEventID = resume.lastEventIDHeader { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        return request
    }

    private func runHTTP(host: String, port: Int, target: String) async -> AttemptOutcome {
        let record = AttemptRecord()
        guard let client = self.client else {
            record.ended("no HTTP client")
            return record.outcome
        }
        let lastEventID = self.resume.lastEventIDHeader
        let request = Self.request(host: host, port: port, target: target, resume: self.resume)
        let reader = HTTPStreamReader(
            ingest: self.context.makeIngest(highestSequence: self.resume.current.highestSequence),
            health: self.context.health,
            record: record,
            resume: self.resume,
            checksReplay: lastEventID != nil,
            maximumLineLength: self.context.maximumLineLength,
            lastEventID: lastEventID ?? "",
            url: self.url
        )
        do {
            // The deadline is the answer's head's: the body streams for as long as it lasts.
            let response = try await client.execute(request, timeout: HTTPStreamReader.headTimeout)
            guard reader.head(status: response.status, contentType: response.headers.first(name: "content-type")) else {
                return record.outcome
            }
            for try await buffer in response.body { reader.body(buffer) }
            reader.end()
        } catch {
            if Task.isCancelled {
                record.ended("shutting down")
            } else if let error = error as? HTTPClientError, error == .remoteConnectionClosed {
                reader.failed(nil)
            } else if let error = error as? HTTPClientError, error == .deadlineExceeded {
                reader.failed("no answer within \(HTTPStreamReader.headTimeout.nanoseconds / 1_000_000_000) s")
            } else {
                reader.failed(Self.describe(error))
            }
        }
        return record.outcome
    }

    private func runUnix(path: String) async -> AttemptOutcome {
        let record = AttemptRecord()
        let context = self.context
        let bootstrap = ClientBootstrap(group: context.group).connectTimeout(self.connectTimeout).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    LineStreamHandler(ingest: context.makeIngest(), health: context.health, record: record, detail: "unix:\(path)")
                )
            }
        }
        let connect = bootstrap.connect(unixDomainSocketPath: path)
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
        if let error = error as? HTTPClientError {
            return error == .connectTimeout ? "connect timed out" : HTTPGetClient.words(error)
        }
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
