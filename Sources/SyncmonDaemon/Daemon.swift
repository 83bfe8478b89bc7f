import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SyncmonCore
import SyncmonHost
import SyncmonSystemd
import SyncmonWeb
import UnixSignals

/// Builds and runs the daemon: every long-running part a `Service` in one `ServiceGroup`.
public enum Daemon {
    /// Runs until SIGTERM or SIGINT. `load` builds the configuration (defaults, file, flags) and
    /// is called again on SIGHUP, which also sets `logLevel` (the handlers' shared level).
    public static func run(
        load: @escaping @Sendable () throws -> DaemonConfiguration,
        logger: Logger,
        logLevel: SharedLogLevel? = nil,
        version: String,
        revision: String
    ) async throws {
        Heap.configure()
        let configuration = try load()
        let (stateLock, listener) = try Self.claim(configuration)
        defer { withExtendedLifetime(stateLock) {} }
        // Also when a start fails half-way (a port in use): the push service removes it at a
        // clean stop; this covers a start that never got that far.
        defer { if case .claimed(let socket) = listener { socket.removeIfOwn() } }
        let store = MonitorStore(configuration: configuration.monitorConfiguration)
        let reporter = EventReporter(logger: logger)
        let persistence = PersistenceService(
            file: StateFile(directory: configuration.stateDirectory),
            store: store,
            interval: configuration.persistInterval,
            logger: logger
        )
        persistence.restore()

        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
        // HTTP has an event loop of its own: a status request or scrape must not queue behind
        // a connection's read being decoded, applied and logged on a shared loop (under a burst
        // of state changes, logging alone held a shared loop for milliseconds).
        let httpGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let readiness = ReadinessLatch(count: 2)
        let push = PushIngestService(
            configuration: configuration,
            store: store,
            reporter: reporter,
            group: group,
            readiness: readiness,
            logger: logger,
            listener: listener
        )
        // Subscribe sources (docs/subscribe.md): one service each, after `push` in the list so
        // they stop before the state is saved.
        let subscribe = try SubscribeService.make(configuration: configuration, store: store, reporter: reporter, group: group, logger: logger)
        var renderer = MetricsRenderer(version: version, revision: revision)
        renderer.sources = subscribe.registry
        renderer.persistence = persistence.health
        // TLS and basic auth (docs/configuration.md, "Web configuration"); SIGHUP replaces it.
        let web = WebSecurityHolder(configuration.web)
        let http = HTTPService(
            configuration: configuration,
            router: HTTPRouter(store: store, renderer: renderer),
            group: httpGroup,
            readiness: readiness,
            web: web,
            logger: logger
        )
        let notify = SystemdNotifyService(store: store, group: group, readiness: readiness, logger: logger)
        let evaluation = EvaluationService(store: store, clock: SystemServiceClock()) { changes in
            reporter.report(changes)
            notify.updateStatus()
        }
        // The host's own network view (docs/operations.md, "Host network view"), taken before
        // any service runs: restored pairs and the first events meet the host's real state.
        let hostNetwork = HostNetworkService(mode: configuration.hostNetwork, logger: logger) { update in
            reporter.report(hostNetwork: update)
            let status: NetworkStatus
            switch update {
            case .view(let view): status = view.status
            case .unavailable: status = .unknown
            }
            reporter.report(store.setHostNetwork(status, now: WallClock.now()))
            notify.updateStatus()
        }
        // Canaries (docs/canary.md), checked at load: their pairs exist from the start.
        let canaries = try CanarySetting.resolve(configuration.canaries, flags: configuration.canaryFlags)
        let canary: [any Service] =
            canaries.isEmpty ? [] : [CanaryService(canaries: canaries, store: store, stateDirectory: configuration.stateDirectory, logger: logger)]
        let reload = ReloadService(
            load: load, running: configuration, store: store, notify: notify, web: web, logLevel: logLevel, logger: logger)

        // Started in this order, stopped in reverse: systemd hears STOPPING first, and the
        // state is saved last, after the listeners have closed.
        let serviceGroup = ServiceGroup(
            services: [persistence, push] + subscribe.services.map { $0 as any Service } + [http, hostNetwork] + canary + [evaluation, reload, notify],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        logger.notice(
            "syncmon \(version) starting",
            metadata: [
                SyncmonMetadataKey.messageID: MessageID.daemonStarted.metadataValue,
                SyncmonMetadataKey.version: "\(version)",
                SyncmonMetadataKey.statePath: "\(configuration.stateDirectory)",
            ]
        )
        hostNetwork.start()
        defer {
            logger.notice("syncmon stopped", metadata: [SyncmonMetadataKey.messageID: MessageID.daemonStopping.metadataValue])
        }
        try await serviceGroup.run()
        try await httpGroup.shutdownGracefully()
        try await group.shutdownGracefully()
    }

    /// One daemon per state directory and per events socket (docs/operations.md, "One daemon per
    /// socket"): both taken before anything is read or bound, and held until the process ends.
    /// A socket systemd passed in is systemd's: it is not probed, and never removed.
    static func claim(_ configuration: DaemonConfiguration) throws -> (StateDirectoryLock, PushIngestService.Listener) {
        let stateLock = try StateDirectoryLock.take(configuration.stateDirectory)
        let activated = (try? SocketActivation.listenedSockets()) ?? []
        let eventsDescriptor =
            activated.first { $0.name == "events" || $0.name == "syncmon.socket" }?.fileDescriptor
            ?? (activated.count == 1 ? activated[0].fileDescriptor : nil)
        if let eventsDescriptor { return (stateLock, .activated(descriptor: eventsDescriptor)) }
        return (stateLock, .claimed(try EventsSocket.claim(configuration.eventsSocket)))
    }
}
