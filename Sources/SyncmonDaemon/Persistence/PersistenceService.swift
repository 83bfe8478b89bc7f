import Logging
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonSystemd

/// Writes the state within `interval` of each change (docs/operations.md, "Persisted state"),
/// so a `kill -9` loses at most that much, and once more on shutdown. When to save is
/// `SaveSchedule`'s decision: a save starts when the oldest unsaved change is `interval` minus
/// the last save's duration old, saves start at least half an interval apart. With nothing
/// unsaved it sleeps until the store turns dirty: an idle daemon's saver does not wake.
///
/// A save that fails (a full or read-only state directory) leaves the state dirty and is tried
/// again, after 1, 2, 4 and then every 5 intervals, until it succeeds, whether or not anything
/// changes meanwhile; `health` counts it for `/metrics`.
package struct PersistenceService: Service {
    let file: StateFile
    let store: MonitorStore
    let interval: TimeSpan
    let clock: any ServiceClock
    let logger: Logger
    package let health: PersistenceHealth

    package init(
        file: StateFile, store: MonitorStore, interval: TimeSpan, clock: any ServiceClock, logger: Logger, health: PersistenceHealth = PersistenceHealth()
    ) {
        self.file = file
        self.store = store
        self.interval = interval
        self.clock = clock
        self.logger = logger
        self.health = health
    }

    /// Restores persisted pairs into the store (before any listener starts), as the daemon
    /// starts at `start`.
    package func restore(start: Timestamp) {
        switch self.file.load(now: start) {
        case .missing:
            self.logger.info("no saved state yet", metadata: [SyncmonMetadataKey.statePath: "\(self.file.path)"])
        case .loaded(let pairs, let histories, let savedAt):
            self.store.restore(pairs, histories: histories, savedAt: savedAt, start: start)
            self.logger.info("restored saved state", metadata: [SyncmonMetadataKey.statePath: "\(self.file.path)", SyncmonMetadataKey.pairs: "\(pairs.count)"])
        case .corrupt(let aside, let reason):
            self.logger.error(
                "state file is corrupt; set aside, starting empty",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.stateFileCorrupt.metadataValue,
                    SyncmonMetadataKey.statePath: "\(self.file.path)",
                    SyncmonMetadataKey.setAsidePath: "\(aside)",
                    SyncmonMetadataKey.reason: "\(reason)",
                ]
            )
        }
    }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var schedule = SaveSchedule(budget: self.interval)
            while true {
                let now = self.clock.wallTime()
                let dirtySince = self.store.dirtySince
                if schedule.isDue(now: now, dirtySince: dirtySince) {
                    let saved = self.saveIfDirty(final: false)
                    schedule.saved(start: now, end: self.clock.wallTime(), succeeded: saved)
                    continue
                }
                guard let wake = schedule.nextCheck(now: now, dirtySince: dirtySince) else {
                    // Nothing unsaved: asleep until the store turns dirty, woken at the change
                    // itself, so its budget starts then (it used to poll five times a second).
                    await self.store.waitForDirty()
                    try Task.checkCancellation()
                    continue
                }
                try await self.clock.sleep(for: TimeSpan(microseconds: max(1_000, wake.since(now).microseconds)))
            }
        }
        // The final save on SIGTERM: attempted whatever happened before, its failure logged.
        self.saveIfDirty(final: true)
    }

    /// Saves when anything changed (or an earlier save failed); `false` when the save failed.
    @discardableResult
    func saveIfDirty(final: Bool) -> Bool {
        guard let (monitor, since) = self.store.takeDirty() else { return true }
        let now = self.clock.wallTime()
        let metadata: Logger.Metadata = [SyncmonMetadataKey.statePath: "\(self.file.path)"]
        do {
            try self.file.save(monitor, now: now)
            if self.health.snapshot.failingInARow > 0 {
                self.logger.notice("state saved again", metadata: metadata)
            }
            self.health.succeeded(at: now)
            return true
        } catch {
            // Not lost: still dirty, so the next attempt writes it (with whatever came since).
            self.store.markDirty(since: since)
            let inARow = self.health.failed()
            var details = metadata
            details[SyncmonMetadataKey.reason] = "\(error)"
            if final {
                self.logger.error("cannot save state on shutdown; changes since the last save are lost", metadata: details)
            } else if inARow == 1 || inARow.isMultiple(of: 10) {
                // The first failure, then every tenth: a full disk does not flood the journal.
                details[SyncmonMetadataKey.failures] = "\(inARow)"
                self.logger.error("cannot save state; retrying", metadata: details)
            }
            return false
        }
    }
}
