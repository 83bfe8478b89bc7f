import Logging
import ServiceLifecycle
import SyncmonSystemd
import UnixSignals

/// Re-reads the configuration on SIGHUP (docs/operations.md#systemd): `RELOADING=1`, apply, `READY=1`.
///
/// Stall thresholds, the pair limit and the web configuration (certificates, users, headers:
/// for connections and requests from then on) apply at once; listen addresses, socket paths, sources,
/// logging and the connection limit are set up at start, so a change to them is logged as
/// needing a restart.
public struct ReloadService: Service {
    let load: @Sendable () throws -> DaemonConfiguration
    let running: DaemonConfiguration
    let store: MonitorStore
    let notify: SystemdNotifyService
    /// The listeners' web configuration: replaced on a good reload, kept on a bad one.
    let web: WebSecurityHolder?
    let logger: Logger

    public init(
        load: @escaping @Sendable () throws -> DaemonConfiguration,
        running: DaemonConfiguration,
        store: MonitorStore,
        notify: SystemdNotifyService,
        web: WebSecurityHolder? = nil,
        logger: Logger
    ) {
        self.load = load
        self.running = running
        self.store = store
        self.web = web
        self.notify = notify
        self.logger = logger
    }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            self.reload()
        }
    }

    func reload() {
        self.notify.reloading()
        defer { self.notify.reloaded() }
        do {
            let configuration = try self.load()
            self.store.reconfigure(configuration.monitorConfiguration)
            // The web configuration (certificates, users, headers) applies to new connections
            // and requests at once: certificate rotation needs no restart.
            self.web?.replace(configuration.web)
            // What is bound or set up at start only applies after a restart; say which.
            var needsRestart: [String] = []
            if configuration.listen != self.running.listen { needsRestart.append("listen") }
            if configuration.eventsSocket != self.running.eventsSocket { needsRestart.append("events-socket") }
            if configuration.stateDirectory != self.running.stateDirectory { needsRestart.append("state-dir") }
            if configuration.subscribe != self.running.subscribe { needsRestart.append("subscribe") }
            if configuration.canaries != self.running.canaries { needsRestart.append("canary") }
            if configuration.logTarget != self.running.logTarget { needsRestart.append("log-target") }
            if configuration.logLevel != self.running.logLevel { needsRestart.append("log-level") }
            if configuration.maximumConnections != self.running.maximumConnections { needsRestart.append("max-connections") }
            if configuration.hostNetwork != self.running.hostNetwork { needsRestart.append("host-network") }
            self.logger.notice(
                needsRestart.isEmpty
                    ? "configuration reloaded"
                    : "configuration reloaded; changes to \(needsRestart.joined(separator: ", ")) take a restart",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.configurationReloaded.metadataValue,
                    SyncmonMetadataKey.configPath: "\(configuration.configFile ?? "-")",
                    "syncmon.web_config": "\(configuration.webConfigFile ?? "-")",
                ]
            )
        } catch {
            self.logger.error(
                "configuration reload failed; keeping the running configuration",
                metadata: [SyncmonMetadataKey.configPath: "\(self.running.configFile ?? "-")", "syncmon.reason": "\(error)"]
            )
        }
    }
}
