import Logging
import ServiceLifecycle
import SyncmonSystemd
import UnixSignals

/// Re-reads the configuration on SIGHUP (SPEC §7): `RELOADING=1`, apply, `READY=1`.
///
/// Stall thresholds and limits apply at once; listen addresses and socket paths are bound at
/// start, so a change to them is logged as needing a restart.
public struct ReloadService: Service {
    let load: @Sendable () throws -> DaemonConfiguration
    let running: DaemonConfiguration
    let store: MonitorStore
    let notify: SystemdNotifyService
    let logger: Logger

    public init(
        load: @escaping @Sendable () throws -> DaemonConfiguration,
        running: DaemonConfiguration,
        store: MonitorStore,
        notify: SystemdNotifyService,
        logger: Logger
    ) {
        self.load = load
        self.running = running
        self.store = store
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
            let needsRestart = configuration.listen != self.running.listen || configuration.eventsSocket != self.running.eventsSocket
                || configuration.stateDirectory != self.running.stateDirectory || configuration.subscribe != self.running.subscribe
            self.logger.notice(
                needsRestart ? "configuration reloaded; listen, socket, state and subscribe changes take a restart" : "configuration reloaded",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.configurationReloaded.metadataValue,
                    SyncmonMetadataKey.configPath: "\(configuration.configFile ?? "-")",
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
