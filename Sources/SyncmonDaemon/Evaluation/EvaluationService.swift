import ServiceLifecycle
import SyncmonContract
import SyncmonCore

/// Looks at the pairs when their verdicts can change with time alone — a stall threshold
/// crossed, a heartbeat missed, a throttle ending — and reports each change once.
///
/// Deadline-driven: the core says when the next look is due (`Monitor.nextLook`), and the
/// service sleeps until then. An event that brings a deadline closer wakes it early (the
/// store signals); events themselves are looked at as they are applied, so between deadlines
/// there is nothing to do, whatever the number of pairs.
package struct EvaluationService: Service {
    let store: MonitorStore
    let clock: any ServiceClock
    let report: @Sendable ([StatusChange]) -> Void

    /// `report` gets each look's changes (never an empty list).
    package init(store: MonitorStore, clock: any ServiceClock, report: @escaping @Sendable ([StatusChange]) -> Void) {
        self.store = store
        self.clock = clock
        self.report = report
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let now = self.clock.wallTime()
                let (changes, next) = self.store.look(at: now, latest: now.adding(TimeSpan.longestSleep))
                if !changes.isEmpty { self.report(changes) }
                await self.sleep(until: next)
            }
        }
    }

    /// Sleeps until `deadline`, or until the store asks for an earlier look.
    private func sleep(until deadline: Timestamp) async {
        let store = self.store
        let clock = self.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline) }
            group.addTask { await store.waitForEarlierLook() }
            await group.next()
            group.cancelAll()
        }
    }
}
