import SyncmonContract
import SyncmonCore

/// The state model as the sources see it (`SourceStateModel`), over the daemon's store and
/// reporter: each change a source causes is applied under the store's lock and reported here,
/// as the push socket's are.
struct StoreSourceModel: SourceStateModel {
    let store: MonitorStore
    let reporter: EventReporter

    func makeIngest(clock: any ServiceClock, connection: UInt64?, maximumLineLength: Int, highestSequence: Int64?) -> any SourceIngest {
        EventIngest(
            store: self.store,
            reporter: self.reporter,
            transport: .subscribe,
            clock: clock,
            connection: connection,
            maximumLineLength: maximumLineLength,
            highestSequence: highestSequence
        )
    }

    func connectionClosed(_ connection: UInt64, now: Timestamp) {
        self.reporter.report(self.store.connectionClosed(connection, now: now))
    }

    func sourceLost(_ engine: InlineName, connection: UInt64, now: Timestamp) {
        self.reporter.report(self.store.sourceLost(engine, connection: connection, now: now))
    }

    func setUnknown(_ key: PairKey, because reason: String?, now: Timestamp) {
        self.reporter.report(self.store.setUnknown(key, because: reason, now: now))
    }

    func canary(_ key: PairKey, _ status: CanaryStatus, cycles: [(phase: Phase, at: Timestamp)], now: Timestamp) {
        _ = self.store.canary(key, status, cycles: cycles, now: now)
    }

    func isSuppressed(_ key: PairKey, at time: Timestamp) -> Bool {
        self.store.snapshot().monitor.isSuppressed(key, at: time)
    }
}
