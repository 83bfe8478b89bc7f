import Logging
import NIOCore
import ServiceLifecycle
import SyncmonCore
import SyncmonSystemd

/// One `--subscribe` source (SPEC §1.1): connects to an engine's own stream and feeds its
/// lines to the state model like the push socket does, reconnecting with capped exponential
/// backoff and jitter. Each source is its own service: one that fails never holds up another,
/// nor the push socket. Stops at graceful shutdown, saving its resume point.
public struct SubscribeService: Service {
    let spec: SourceSpec
    let store: MonitorStore
    let reporter: EventReporter
    let group: any EventLoopGroup
    let health: SourceHealth
    let stateDirectory: String
    let fromStart: Bool
    let maximumLineLength: Int
    let logger: Logger
    /// `file:` sources: where the file ends as the daemon starts.
    let fileSnapshot: FileFollower.StartSnapshot?

    /// The services for every configured source, and the registry their metrics come from.
    public static func make(
        configuration: DaemonConfiguration,
        store: MonitorStore,
        reporter: EventReporter,
        group: any EventLoopGroup,
        logger: Logger
    ) throws -> (services: [SubscribeService], registry: SourceRegistry) {
        let specs: [SourceSpec]
        do {
            specs = try SourceSpec.parseAll(configuration.subscribe)
        } catch {
            throw DaemonError(error.description)
        }
        let registry = SourceRegistry(names: specs.map(\.name), logger: logger)
        let services = zip(specs, registry.sources).map { spec, health in
            SubscribeService(
                spec: spec,
                store: store,
                reporter: reporter,
                group: group,
                health: health,
                stateDirectory: configuration.stateDirectory,
                fromStart: configuration.subscribeFromStart,
                maximumLineLength: configuration.maximumLineLength,
                logger: logger,
                fileSnapshot: {
                    // Taken now, before the daemon reports ready (see FileFollower.StartSnapshot).
                    guard case .file(let path) = spec.endpoint else { return nil }
                    return FileFollower.startSnapshot(path: path, maximumLineLength: configuration.maximumLineLength)
                }()
            )
        }
        return (services, registry)
    }

    public func run() async throws {
        self.logger.info(
            "subscribing to \(self.spec.url) as \(self.spec.name)",
            metadata: [SyncmonMetadataKey.source: "\(self.spec.name)"]
        )
        // Cancelled at graceful shutdown: every wait below ends at once, and the resume point
        // (offset, last event ID) is saved on the way out.
        let runner = SourceRunner(service: self)
        let spec = self.spec
        await cancelWhenGracefulShutdown {
            await runner.run(spec)
        }
    }
}

/// What a source's task does; a separate value so `cancelWhenGracefulShutdown` can take it.
private struct SourceRunner: Sendable {
    let service: SubscribeService

    func run(_ spec: SourceSpec) async {
        switch spec.endpoint {
        case .file(let path):
            var follower = FileFollower(
                spec: spec,
                path: path,
                fromStart: self.service.fromStart,
                store: self.service.store,
                reporter: self.service.reporter,
                maximumLineLength: self.service.maximumLineLength,
                health: self.service.health,
                stateDirectory: self.service.stateDirectory,
                logger: self.service.logger,
                snapshot: self.service.fileSnapshot
            )
            await follower.run()
        case .unix, .http:
            await self.stream(spec)
        }
    }

    /// `unix:` and `http://`: connect, read until the connection ends, wait, again.
    private func stream(_ spec: SourceSpec) async {
        let isHTTP = if case .http = spec.endpoint { true } else { false }
        let resumeFile = SourceStateFile<StreamResumeDocument>(stateDirectory: self.service.stateDirectory, name: spec.name, suffix: "resume")
        let resume = isHTTP ? self.loadResume(resumeFile, url: spec.url) : StreamResume()
        let connection = StreamConnection(
            spec: spec,
            store: self.service.store,
            reporter: self.service.reporter,
            group: self.service.group,
            health: self.service.health,
            resume: resume,
            maximumLineLength: self.service.maximumLineLength,
            connectTimeout: .seconds(10)
        )
        await withTaskGroup(of: Void.self) { group in
            if isHTTP {
                // The resume point is saved at most a second after it moved.
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        self.saveResume(resume, to: resumeFile, url: spec.url)
                    }
                }
            }
            group.addTask {
                var backoff = ReconnectBackoff.standard
                var attempts = 0
                while !Task.isCancelled {
                    if attempts > 0 { self.service.health.countReconnect() }
                    attempts += 1
                    let outcome = await connection.run()
                    if Task.isCancelled { break }
                    // A healthy connection (it delivered lines, or stayed up a while: a quiet
                    // engine, a long poll that ended empty) starts the schedule over.
                    if outcome.delivered > 0 || outcome.connectedAt.map({ ContinuousClock.now - $0 >= .seconds(10) }) == true {
                        backoff.reset()
                    }
                    if let retry = resume.current.retryMilliseconds {
                        // The SSE server's `retry:` sets the first delay (within the cap).
                        backoff.initial = min(Double(retry) / 1000, backoff.maximum)
                    }
                    let delay = backoff.nextDelay()
                    self.service.health.disconnected(outcome.reason ?? "connection closed", retryIn: delay)
                    try? await Task.sleep(for: .seconds(delay))
                }
            }
            await group.next()
            group.cancelAll()
        }
        if isHTTP { self.saveResume(resume, to: resumeFile, url: spec.url) }
    }

    private func loadResume(_ file: SourceStateFile<StreamResumeDocument>, url: String) -> StreamResume {
        switch file.load() {
        case .success(let document)? where document.url == url:
            return StreamResume(
                StreamResume.State(
                    lastEventID: document.lastEventID ?? "",
                    highestSequence: document.since,
                    kind: document.kind.flatMap(StreamResume.Kind.init(rawValue:))
                )
            )
        case .failure(let error)?:
            self.service.logger.warning(
                "subscribe source \(self.service.spec.name): unreadable resume file; starting afresh",
                metadata: [SyncmonMetadataKey.source: "\(self.service.spec.name)", SyncmonMetadataKey.statePath: "\(file.path)", "syncmon.reason": "\(error)"]
            )
            return StreamResume()
        default:
            return StreamResume()
        }
    }

    private func saveResume(_ resume: StreamResume, to file: SourceStateFile<StreamResumeDocument>, url: String) {
        guard let state = resume.takeDirty() else { return }
        let document = StreamResumeDocument(
            url: url,
            lastEventID: state.lastEventID.isEmpty ? nil : state.lastEventID,
            since: state.highestSequence,
            kind: state.kind?.rawValue
        )
        do {
            try file.save(document)
        } catch {
            self.service.logger.error(
                "subscribe source \(self.service.spec.name): cannot save the resume point",
                metadata: [SyncmonMetadataKey.source: "\(self.service.spec.name)", SyncmonMetadataKey.statePath: "\(file.path)", "syncmon.reason": "\(error)"]
            )
        }
    }
}
