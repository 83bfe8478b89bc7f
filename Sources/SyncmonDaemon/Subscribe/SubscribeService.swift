import Logging
import NIOCore
import ServiceLifecycle
import SyncmonCore
import SyncmonSystemd

/// One `--subscribe` source as a service (docs/subscribe.md): whatever its kind, it runs its
/// `EventSource` until graceful shutdown. Each source is its own service: one that fails never
/// holds up another, nor the push socket.
public struct SubscribeService: Service {
    let spec: SourceSpec
    let source: any EventSource
    let context: SourceContext

    /// The services for every configured source, and the registry their metrics come from.
    public static func make(
        configuration: DaemonConfiguration,
        store: MonitorStore,
        reporter: EventReporter,
        group: any EventLoopGroup,
        clock: any ServiceClock,
        logger: Logger
    ) throws -> (services: [SubscribeService], registry: SourceRegistry) {
        let specs: [SourceSpec]
        do {
            specs = try configuration.sources()
        } catch {
            throw DaemonError.configuration(error.description)
        }
        let registry = SourceRegistry(sources: specs.map { ($0.name, $0.endpoint.kind) }, clock: clock, logger: logger)
        let services = try zip(specs, registry.sources).map { spec, health in
            SubscribeService(
                spec: spec,
                // Made now, before the daemon reports ready: a file source notes where its
                // file ends at this moment, a Syncthing source finds its key file.
                source: try spec.makeSource(configuration: configuration, unitRestarts: registry.unitRestarts),
                context: SourceContext(
                    name: spec.name,
                    store: store,
                    reporter: reporter,
                    group: group,
                    clock: clock,
                    health: health,
                    stateDirectory: configuration.stateDirectory,
                    maximumLineLength: configuration.maximumLineLength,
                    logger: logger
                )
            )
        }
        return (services, registry)
    }

    public func run() async throws {
        self.context.logger.info("subscribing to \(self.spec.url) as \(self.spec.name)", metadata: self.context.metadata)
        // Cancelled at graceful shutdown: every wait inside ends at once, and the resume point
        // (offset, last event ID) is saved on the way out.
        let source = self.source
        let context = self.context
        await cancelWhenGracefulShutdown {
            await source.run(in: context)
        }
    }
}

extension SourceSpec {
    /// Checks, before anything starts, what the source needs besides its URL (a Syncthing
    /// source's key file), so that a missing one is a configuration error.
    public func checkRequirements(configuration: DaemonConfiguration) throws(DaemonError) {
        _ = try self.makeSource(configuration: configuration, unitRestarts: UnitRestartCounter())
    }

    /// The source for this endpoint: the one place that knows every kind. A unit source counts
    /// its service's restarts into `unitRestarts`.
    func makeSource(
        configuration: DaemonConfiguration,
        unitRestarts: UnitRestartCounter,
        environment: [String: String] = DaemonConfiguration.processEnvironment
    ) throws(DaemonError) -> any EventSource {
        switch self.endpoint {
        case .unix(let path):
            return StreamSource(url: self.url, target: .unix(path: path))
        case .http(let host, let port, let target):
            return StreamSource(url: self.url, target: .http(host: host, port: port, target: target))
        case .file(let path):
            return FileSource(
                path: path,
                fromStart: configuration.subscribeFromStart,
                snapshot: FileFollower.startSnapshot(path: path, maximumLineLength: configuration.maximumLineLength)
            )
        case .unit(let target):
            return try target.makeSource(restarts: unitRestarts)
        case .syncthing(let host, let port, let secure):
            do {
                let credential = try SyncthingCredential.locate(
                    source: self.name,
                    settings: configuration.sourceSettings[self.name],
                    credentialsDirectory: environment["CREDENTIALS_DIRECTORY"]
                )
                let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
                return SyncthingSource(baseURL: (secure ? "https://" : "http://") + authority, credential: credential)
            } catch {
                throw DaemonError.configuration("\(error)")
            }
        }
    }
}
