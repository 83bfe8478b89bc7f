import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonSources
import SyncmonSystemd
import SyncmonWeb
import UnixSignals

/// Builds and runs the daemon: every long-running part a `Service` in one `ServiceGroup`.
package enum Daemon {
    /// Runs until SIGTERM or SIGINT. `load` builds the configuration (defaults, file, flags) and
    /// is called again on SIGHUP, which also sets `logLevel` (the handlers' shared level).
    package static func run(
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
        // The host's clocks, read here and nowhere else: every service is handed this.
        let wiring = Wiring(configuration: configuration, clock: SystemServiceClock(), logger: logger)
        wiring.persistence.restore(start: wiring.clock.wallTime())

        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
        // HTTP has an event loop of its own: a status request or scrape must not queue behind
        // a connection's read being decoded, applied and logged on a shared loop (under a burst
        // of state changes, logging alone held a shared loop for milliseconds).
        let httpGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (services, hostNetwork) = try wiring.services(
            listener: listener, group: group, httpGroup: httpGroup, load: load, logLevel: logLevel, version: version, revision: revision)
        let serviceGroup = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
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
