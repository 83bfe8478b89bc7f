import ServiceLifecycle
import SyncmonCore

/// Re-evaluates every pair once a second: stalls and missed heartbeats happen with time, not
/// only with events, and each change is logged once.
public struct EvaluationService: Service {
    let store: MonitorStore
    let reporter: EventReporter
    let notify: SystemdNotifyService

    public init(store: MonitorStore, reporter: EventReporter, notify: SystemdNotifyService) {
        self.store = store
        self.reporter = reporter
        self.notify = notify
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                self.tick(now: WallClock.now())
                try await Task.sleep(for: .seconds(1))
            }
        }
    }

    func tick(now: Timestamp) {
        let changes = self.store.changes(at: now)
        guard !changes.isEmpty else { return }
        self.reporter.report(changes)
        self.notify.updateStatus()
    }
}
