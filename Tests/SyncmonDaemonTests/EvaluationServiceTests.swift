import SyncmonContractTesting
import SyncmonCore
import SyncmonDaemon
import SyncmonLock
import Testing

/// `EvaluationService` on a hand-moved clock: it sleeps until the core's next deadline, wakes
/// early when an event brings a closer one, and reports each time-driven change once.
@Suite("Evaluation service")
struct EvaluationServiceTests {
    /// Thresholds with only `reason` enabled, at `seconds`.
    static func only(_ reason: StallReason, _ seconds: Int64) -> StallThresholds {
        var thresholds = StallThresholds(
            notSyncing: .zero, noProgress: .zero, pendingNotDraining: .zero, retryLoop: .zero, noRecentImport: .zero, noRecentExport: .zero)
        thresholds[reason] = .seconds(seconds)
        return thresholds
    }

    /// The service running on `clock` over `store`, its reports collected.
    final class Running: Sendable {
        let clock: ManualClock
        let store: MonitorStore
        /// Each report's changes, in order.
        final class Reports: Sendable {
            let list = Locked<[[StatusChange]]>([])
        }

        let reports = Reports()
        private let task = Locked<Task<Void, Never>?>(nil)

        init(thresholds: StallThresholds, start: Timestamp) {
            self.clock = ManualClock(now: start)
            self.store = MonitorStore(configuration: MonitorConfiguration(thresholds: thresholds))
            let reports = self.reports
            let service = EvaluationService(store: self.store, clock: self.clock) { changes in
                reports.list.withLock { $0.append(changes) }
            }
            self.task.withLock { $0 = Task(executorPreference: serviceExecutor) { try? await service.run() } }
        }

        deinit { self.task.withLock { $0?.cancel() } }

        var reported: [StatusChange.Kind] { self.reports.list.withLock { $0.flatMap { $0.map(\.kind) } } }

        /// Applies `text` at the clock's now, as a push connection's read does.
        func send(_ text: String) {
            feed(self.store, text + "\n", now: self.clock.wallTime())
        }

        /// Waits (by yielding, not by time) until the service sleeps until exactly `deadline`.
        func sleeps(until deadline: Timestamp) async -> Bool {
            for _ in 0..<100_000 {
                if self.clock.sleepingUntil == [deadline] { return true }
                await Task.yield()
            }
            return false
        }

        /// Waits until `count` changes have been reported.
        func reportedCount(_ count: Int) async -> Bool {
            for _ in 0..<100_000 {
                if self.reported.count >= count { return true }
                await Task.yield()
            }
            return false
        }
    }

    @Test("idle: one look, then asleep for the longest sleep; nothing reported")
    func idle() async {
        let running = Running(thresholds: Self.only(.noProgress, 100), start: at(0))
        #expect(await running.sleeps(until: at(10)))
        running.clock.advance(to: at(10))
        #expect(await running.sleeps(until: at(20)))
        #expect(running.reported.isEmpty)
    }

    @Test("asleep until the stall's threshold, which it reports on the dot")
    func sleepsUntilTheThreshold() async {
        let running = Running(thresholds: Self.only(.noProgress, 5), start: at(0))
        #expect(await running.sleeps(until: at(10)))
        running.send(line("notes", "willFetchChanges"))
        // The event's look set a deadline closer than the sleep: the service woke and now
        // sleeps until the threshold instead.
        #expect(await running.sleeps(until: at(5)))
        running.clock.advance(to: at(4))
        #expect(await running.sleeps(until: at(5)))
        #expect(running.reported.isEmpty)
        running.clock.advance(to: at(5))
        #expect(await running.reportedCount(2))
        #expect(running.reported == [.stallRaised(.noProgress), .summaryChanged(from: .inProgress)])
        // Nothing left to wait for but the longest sleep.
        #expect(await running.sleeps(until: at(15)))
    }

    @Test("a deadline later than the longest sleep is reached in steps of it")
    func longDeadline() async {
        let running = Running(thresholds: Self.only(.noProgress, 25), start: at(0))
        running.send(line("notes", "willFetchChanges"))
        #expect(await running.sleeps(until: at(10)))
        running.clock.advance(to: at(10))
        #expect(await running.sleeps(until: at(20)))
        running.clock.advance(to: at(20))
        #expect(await running.sleeps(until: at(25)))
        #expect(running.reported.isEmpty)
        running.clock.advance(to: at(25))
        #expect(await running.reportedCount(2))
    }

    @Test("a reload with shorter thresholds makes every pair due at once")
    func reloadMakesDue() async {
        let running = Running(thresholds: Self.only(.noProgress, 1_000), start: at(0))
        running.send(line("notes", "willFetchChanges"))
        #expect(await running.sleeps(until: at(10)))
        running.clock.advance(to: at(50))
        #expect(await running.sleeps(until: at(60)))
        running.store.reconfigure(MonitorConfiguration(thresholds: Self.only(.noProgress, 30)))
        let reported = await running.reportedCount(2)
        #expect(reported, "sleeping until \(running.clock.sleepingUntil), pairs \(running.store.snapshot().monitor.pairs.count)")
        #expect(running.reported == [.stallRaised(.noProgress), .summaryChanged(from: .inProgress)])
    }
}
