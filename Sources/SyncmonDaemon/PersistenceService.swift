import Logging
import ServiceLifecycle
import SyncmonCore
import SyncmonSystemd

/// Writes the state at most once per interval when it changed, and once more on shutdown, so a
/// `kill -9` loses at most one interval of changes (SPEC §7).
public struct PersistenceService: Service {
    let file: StateFile
    let store: MonitorStore
    let interval: TimeSpan
    let logger: Logger

    public init(file: StateFile, store: MonitorStore, interval: TimeSpan, logger: Logger) {
        self.file = file
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    /// Restores persisted pairs into the store (before any listener starts).
    public func restore() {
        switch self.file.load(now: WallClock.now()) {
        case .missing:
            self.logger.info("no saved state yet", metadata: [SyncmonMetadataKey.statePath: "\(self.file.path)"])
        case .loaded(let pairs):
            self.store.restore(pairs)
            self.logger.info("restored saved state", metadata: [SyncmonMetadataKey.statePath: "\(self.file.path)", "syncmon.pairs": "\(pairs.count)"])
        case .corrupt(let aside, let reason):
            self.logger.error(
                "state file is corrupt; set aside, starting empty",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.stateFileCorrupt.metadataValue,
                    SyncmonMetadataKey.statePath: "\(self.file.path)",
                    SyncmonMetadataKey.setAsidePath: "\(aside)",
                    "syncmon.reason": "\(reason)",
                ]
            )
        }
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: .microseconds(self.interval.microseconds))
                self.saveIfDirty()
            }
        }
        self.saveIfDirty()
    }

    private func saveIfDirty() {
        guard let monitor = self.store.takeDirty() else { return }
        do {
            try self.file.save(monitor, now: WallClock.now())
        } catch {
            self.logger.error("cannot save state", metadata: [SyncmonMetadataKey.statePath: "\(self.file.path)", "syncmon.reason": "\(error)"])
        }
    }
}
