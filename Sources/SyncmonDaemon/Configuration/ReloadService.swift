import Logging
import ServiceLifecycle
import SyncmonSources
import SyncmonSystemd
import SyncmonWeb
import UnixSignals

/// Re-reads the configuration on SIGHUP (docs/operations.md#systemd): `RELOADING=1`, apply, `READY=1`.
///
/// What a reload does with each setting is declared with it (``DaemonSetting/reload``): stall
/// thresholds, the pair limit, who may report and the log level apply at once; the web
/// configuration (certificates, users, headers) to connections and requests from then on; the
/// settings set up at start (addresses, paths, sources, the log target) are named in the log as
/// taking a restart.
package struct ReloadService: Service {
    let load: @Sendable () throws -> DaemonConfiguration
    let running: DaemonConfiguration
    let store: MonitorStore
    let notify: SystemdNotifyService
    /// The listeners' web configuration: replaced on a good reload, kept on a bad one.
    let web: WebSecurityHolder?
    /// The running loggers' level, shared by every handler; nil leaves it alone.
    let logLevel: SharedLogLevel?
    /// The `unit:` sources' rules files: read again, each kept when it has a problem.
    let rules: UnitRulesRegistry
    let logger: Logger

    package init(
        load: @escaping @Sendable () throws -> DaemonConfiguration,
        running: DaemonConfiguration,
        store: MonitorStore,
        notify: SystemdNotifyService,
        web: WebSecurityHolder? = nil,
        logLevel: SharedLogLevel? = nil,
        rules: UnitRulesRegistry = UnitRulesRegistry(),
        logger: Logger
    ) {
        self.rules = rules
        self.logLevel = logLevel
        self.load = load
        self.running = running
        self.store = store
        self.web = web
        self.notify = notify
        self.logger = logger
    }

    package func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            self.reload()
        }
    }

    func reload() {
        self.notify.reloading()
        defer { self.notify.reloaded() }
        // The rules files of the running sources, whatever becomes of the configuration file.
        self.rules.reload(logger: self.logger)
        do {
            let configuration = try self.load()
            self.store.reconfigure(configuration.monitorConfiguration)
            // The web configuration (certificates, users, headers) applies to new connections
            // and requests at once: certificate rotation needs no restart.
            self.web?.replace(configuration.web)
            self.logLevel?.level = configuration.logLevel
            // What is bound or set up at start only applies after a restart; say which.
            let needsRestart = Self.needingRestart(configuration, running: self.running)
            self.logger.notice(
                needsRestart.isEmpty
                    ? "configuration reloaded"
                    : "configuration reloaded; changes to \(needsRestart.joined(separator: ", ")) take a restart",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.configurationReloaded.metadataValue,
                    SyncmonMetadataKey.configPath: "\(configuration.configFile ?? "-")",
                    SyncmonMetadataKey.webConfig: "\(configuration.webConfigFile ?? "-")",
                    SyncmonMetadataKey.logLevel: "\(configuration.logLevel)",
                ]
            )
        } catch {
            self.logger.error(
                "configuration reload failed; keeping the running configuration",
                metadata: [SyncmonMetadataKey.configPath: "\(self.running.configFile ?? "-")", SyncmonMetadataKey.reason: "\(error)"]
            )
        }
    }

    /// The keys of the settings that changed from `running` but only apply after a restart.
    package static func needingRestart(_ configuration: DaemonConfiguration, running: DaemonConfiguration) -> [String] {
        DaemonSetting.all.filter { $0.reload == .restart && $0.differs(configuration, running) }.map(\.key)
    }
}
