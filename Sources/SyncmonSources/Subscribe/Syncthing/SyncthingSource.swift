import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import SyncmonAdapters
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonStatusAPI
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// A `syncthing+http://` source (docs/syncthing.md): reads one Syncthing's REST API, snapshots
/// and then the long-poll of `/rest/events`, and hands what `SyncthingAdapter` makes of it to the
/// state model. Everything about Syncthing's meaning lives in the adapter; this is only I/O.
struct SyncthingSource: EventSource {
    /// `http://HOST:PORT` or `https://HOST:PORT`, the API's root.
    let baseURL: String
    /// Where the API key is read from, each time the source (re)connects.
    let credential: SyncthingCredential
    /// The long-poll's `timeout` (Syncthing's default, 60 s).
    var pollTimeoutSeconds = 60
    /// How long a connection may take: a stopped Syncthing refuses at once on loopback; a host
    /// that drops packets is called unreachable after this.
    var connectTimeout = TimeAmount.seconds(3)

    func run(in context: SourceContext) async {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: self.connectTimeout), decompression: .disabled)
        // A refused connection must fail the try at once, not be retried by the client until
        // the connect timeout (3 s a try, 6 s before a stopped Syncthing read engine_down): the
        // source's own schedule (`SyncthingRetry`) does the retrying, and knows a refusal.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .shared(context.group), configuration: configuration)
        // The pairs this source reports are tied to a connection of its own, so that losing the
        // API marks them engine_down at once instead of after the heartbeat limit.
        let connection = SourceContext.connectionID(for: context.name)
        let ingest = context.makeIngest(connection: connection)
        let engine = InlineName(context.name) ?? InlineName()
        var retry = SyncthingRetry()
        var adapter = SyncthingAdapter(engine: engine, pollTimeoutSeconds: self.pollTimeoutSeconds)
        while !Task.isCancelled {
            do {
                let api = try SyncthingAPI(client: client, baseURL: self.baseURL, key: self.apiKey())
                try await self.follow(api, adapter: &adapter, ingest: ingest, context: context) {
                    // Answers are coming: the source is up from the first one (a healthy
                    // Syncthing must not trip SyncmonSourceDown), and the schedule starts over.
                    if retry.failuresInARow > 0 || context.health.current != .connected { context.health.connected(self.baseURL) }
                    retry.answered()
                }
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                adapter.pollFailed()
                let decision = retry.failed(refused: Self.isRefused(error))
                if decision.engineLost {
                    // Its pairs are down, those of the daemon's previous run included.
                    context.model.sourceLost(engine, connection: connection, now: context.clock.wallTime())
                    // Logged when the state or the reason changes (SourceHealth), at debug otherwise.
                    context.health.disconnected(Self.describe(error, url: self.baseURL), retryIn: decision.delay)
                }
                if retry.failuresInARow > 1 { context.health.countReconnect() }
                try? await context.clock.sleep(for: .seconds(decision.delay))
            }
        }
        try? await client.shutdown()
    }

    /// Snapshots when the adapter asks for one, long-polls otherwise, until a request fails.
    private func follow(
        _ api: SyncthingAPI,
        adapter: inout SyncthingAdapter,
        ingest: any SourceIngest,
        context: SourceContext,
        answered: () -> Void
    ) async throws {
        while !Task.isCancelled {
            let output: SyncthingOutput
            let isSnapshot = adapter.needsSnapshot
            if isSnapshot {
                var snapshot = adapter.makeSnapshot()
                while let request = snapshot.nextRequest {
                    try snapshot.record(request, body: try await api.get(request.path, timeout: .seconds(30)))
                }
                output = adapter.ingest(snapshot: snapshot, at: context.clock.wallTime())
            } else {
                let body = try await api.get(adapter.eventsPath, timeout: .microseconds(adapter.pollDeadline.microseconds))
                output = try adapter.ingest(events: body, at: context.clock.wallTime())
            }
            answered()
            ingest.apply(output.events, asOneState: isSnapshot)
            for notice in output.notices {
                context.logger.notice("syncthing source notice", metadata: context.metadata.merging([SyncmonMetadataKey.notice: "\(notice)"]) { $1 })
            }
        }
    }

    /// Why the API did not answer, in words with the likely fix; never NIO's selector.
    static func describe(_ error: any Error, url: String) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "no connection to \(url) within the connect timeout (is the host reachable?)"
            case .deadlineExceeded, .readTimeout: return "no answer from \(url) within the poll's timeout"
            case .remoteConnectionClosed: return "Syncthing at \(url) closed the connection"
            default: return "\(HTTPGetClient.words(error)) (\(url))"
            }
        }
        if error is SyncthingSourceError || error is SyncthingAdapterError { return "\(error)" }
        return self.isRefused(error)
            ? "connection refused at \(url): is Syncthing running, and is its GUI/API address this one?" : "\(StreamConnection.describe(error)) (\(url))"
    }

    /// Whether nothing listens at the address: the try was refused.
    static func isRefused(_ error: any Error) -> Bool {
        SystemErrorText.code(of: error) == ECONNREFUSED || StreamConnection.describe(error).lowercased() == "connection refused"
    }

    /// The key, read afresh so that a rotated key file takes effect at the next reconnect.
    private func apiKey() throws -> String {
        try self.credential.read()
    }
}

/// Syncthing's REST API: `GET`s with the API key, whole bodies.
struct SyncthingAPI: Sendable {
    let client: HTTPClient
    let baseURL: String
    let key: String

    /// The body of a `200` answer to `GET path`; anything else throws.
    func get(_ path: String, timeout: TimeAmount) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: self.baseURL + path)
        request.headers.add(name: "X-API-Key", value: self.key)
        request.headers.add(name: "User-Agent", value: "syncmon")
        let response = try await self.client.execute(request, timeout: timeout)
        // Large folders' configurations and error lists stay far below this.
        let body = try await response.body.collect(upTo: 32 << 20)
        guard response.status == .ok else {
            let text = String(buffer: body).prefix(200)
            if response.status == .forbidden {
                throw SyncthingSourceError("\(path): 403 \(text.isEmpty ? "" : "(\(text.trimmingSuffix())) ")— is the API key right?")
            }
            throw SyncthingSourceError("\(path): HTTP \(response.status.code) \(text.trimmingSuffix())")
        }
        return Array(buffer: body)
    }
}

extension Substring {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return String(text)
    }
}
