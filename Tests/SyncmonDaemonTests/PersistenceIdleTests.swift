import Foundation
import Logging
import SyncmonContractTesting
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

/// `PersistenceService` on a hand-moved clock: with nothing unsaved it sleeps on no deadline
/// (an idle daemon's saver does not poll), and a change wakes it to save within the budget.
@Suite("Persistence: the saver sleeps until a change", .timeLimit(.minutes(1)))
struct PersistenceIdleTests {
    @Test("no deadline while clean; a change is saved one budget after it, then no deadline again")
    func sleepsUntilChange() async throws {
        let directory = try TemporaryDirectory(prefix: "smpi")
        defer { directory.remove() }
        let file = StateFile(directory: directory.path("state"))
        let store = MonitorStore(configuration: MonitorConfiguration())
        let clock = ManualClock(now: at(0))
        let service = PersistenceService(
            file: file, store: store, interval: .seconds(1 as Int64), clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let task = Task(executorPreference: serviceExecutor) { try await service.run() }

        // Clean: whatever the clock does, nothing is due.
        clock.advance(to: at(30))
        #expect(clock.sleepingUntil.isEmpty)
        _ = feed(store, #"{"v":1,"engine":"notes","type":"heartbeat"}"# + "\n", now: clock.wallTime())
        let due = at(31)
        #expect(await Polling.until(interval: .milliseconds(1)) { clock.sleepingUntil == [due] }, "sleeping until \(clock.sleepingUntil)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        clock.advance(to: due)
        #expect(await Polling.until(interval: .milliseconds(1)) { FileManager.default.fileExists(atPath: file.path) })
        #expect(await Polling.until(interval: .milliseconds(1)) { store.dirtySince == nil && clock.sleepingUntil.isEmpty })

        task.cancel()
        try await task.value
        guard case .loaded(let pairs, _, let savedAt) = file.load(now: clock.wallTime()) else {
            Issue.record("no loadable state saved")
            return
        }
        #expect(pairs.keys.map(\.description) == ["notes/private"])
        #expect(savedAt == due)
    }
}
