import Logging
import NIOCore
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonSystemd

/// One `--subscribe` source as a service (docs/subscribe.md): whatever its kind, it runs its
/// `EventSource` until graceful shutdown. Each source is its own service: one that fails never
/// holds up another, nor the push socket.
package struct SubscribeService: Service {
    let spec: SourceSpec
    let source: any EventSource
    let context: SourceContext

    /// The rules a unit source matches its journal with, which a reload re-reads.
    package var unitRules: UnitRules? {
        (self.source as? UnitSource)?.rules
    }

    /// The services for every configured source, and the registry their metrics come from.
    package static func make(
        specs: [SourceSpec],
        options: SourceOptions,
        model: any SourceStateModel,
        group: any EventLoopGroup,
        clock: any ServiceClock,
        logger: Logger
    ) throws(SourceError) -> (services: [SubscribeService], registry: SourceRegistry) {
        let registry = SourceRegistry(sources: specs.map { ($0.name, $0.endpoint.kind) }, clock: clock, logger: logger)
        var services: [SubscribeService] = []
        for (spec, health) in zip(specs, registry.sources) {
            let service = SubscribeService(
                spec: spec,
                // Made now, before the daemon reports ready: a file source notes where its
                // file ends at this moment, a Syncthing source finds its key file.
                source: try spec.makeSource(options: options, unitRestarts: registry.unitRestarts),
                context: SourceContext(
                    name: spec.name,
                    model: model,
                    group: group,
                    clock: clock,
                    health: health,
                    stateDirectory: options.stateDirectory,
                    maximumLineLength: options.maximumLineLength,
                    logger: logger
                )
            )
            services.append(service)
        }
        return (services, registry)
    }

    package func run() async throws {
        self.context.logger.info("subscribing", metadata: self.context.metadata.merging([SyncmonMetadataKey.endpoint: "\(self.spec.url)"]) { $1 })
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
    package func checkRequirements(options: SourceOptions) throws(SourceError) {
        _ = try self.makeSource(options: options, unitRestarts: UnitRestartCounter())
    }

    /// The source for this endpoint: the one place that knows every kind. A unit source counts
    /// its service's restarts into `unitRestarts`.
    package func makeSource(options: SourceOptions, unitRestarts: UnitRestartCounter) throws(SourceError) -> any EventSource {
        switch self.endpoint {
        case .unix(let path):
            return StreamSource(url: self.url, target: .unix(path: path))
        case .http(let host, let port, let target):
            return StreamSource(url: self.url, target: .http(host: host, port: port, target: target))
        case .file(let path):
            return FileSource(
                path: path,
                fromStart: options.subscribeFromStart,
                snapshot: FileFollower.startSnapshot(path: path, maximumLineLength: options.maximumLineLength)
            )
        case .unit(let target):
            return try target.makeSource(restarts: unitRestarts, environment: options.environment)
        case .syncthing(let host, let port, let secure):
            do {
                let credential = try SyncthingCredential.locate(
                    source: self.name,
                    settings: options.settings[self.name],
                    credentialsDirectory: options.environment["CREDENTIALS_DIRECTORY"]
                )
                let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
                return SyncthingSource(baseURL: (secure ? "https://" : "http://") + authority, credential: credential)
            } catch {
                throw SourceError("\(error)")
            }
        }
    }
}
