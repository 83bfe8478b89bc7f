import Foundation
import Logging
import SyncmonContractTesting
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

/// A save that fails keeps the state dirty and is tried again until it succeeds, whether or not
/// anything changes meanwhile; the failures are counted for `/metrics`.
@Suite("Persistence: failed saves are retried")
struct PersistenceRetryTests {
    @Test("a save that fails is retried without a new change, and then succeeds")
    func retriedUntilSaved() throws {
        let directory = try TemporaryDirectory(prefix: "smpr")
        // A regular file where the state directory's parent must be: every save fails.
        let blocker = directory.path("blocker")
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let file = StateFile(directory: blocker + "/state")
        let store = MonitorStore(configuration: MonitorConfiguration())
        var batch = IngestBatch()
        Array(#"{"v":1,"engine":"notes","type":"heartbeat"}"#.utf8).withUnsafeBytes { batch.add(.line($0)) }
        _ = store.apply(batch, transport: .push, connection: nil, now: at(0))
        let service = PersistenceService(
            file: file, store: store, interval: .seconds(1 as Int64), clock: ManualClock(now: at(1)), logger: Logger(label: "test"))

        #expect(service.saveIfDirty(final: false) == false)
        #expect(service.saveIfDirty(final: false) == false, "still dirty after the first failure")
        #expect(service.health.snapshot == PersistenceHealth.Snapshot(failures: 2, lastSuccess: nil, failingInARow: 2))

        // Room again: the next attempt writes the state though nothing changed since.
        try FileManager.default.removeItem(atPath: blocker)
        #expect(service.saveIfDirty(final: false))
        #expect(FileManager.default.fileExists(atPath: file.path))
        let health = service.health.snapshot
        #expect(health.failures == 2 && health.failingInARow == 0 && health.lastSuccess != nil)
        guard case .loaded(let pairs, _, _) = file.load(now: at(1)) else {
            Issue.record("the retried save did not write a loadable state")
            return
        }
        #expect(pairs.keys.map(\.description) == ["notes/private"])
        // Nothing left to save.
        #expect(service.saveIfDirty(final: false))
        #expect(service.health.snapshot.failures == 2)
    }
}
