import SyncmonLock

/// Lets the notifier wait until every listener is bound before it sends `READY=1` (docs/operations.md#systemd).
package final class ReadinessLatch: Sendable {
    private struct State {
        var remaining: Int
        var cancelled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// A latch that opens after `count` calls to `arrive()`.
    package init(count: Int) {
        self.state = Locked(State(remaining: count))
    }

    /// One listener is ready.
    package func arrive() {
        let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.remaining -= 1
            guard state.remaining <= 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until every listener is ready; returns early when the task is cancelled (a
    /// listener failed to bind and the group is shutting down), so shutdown never hangs here.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = self.state.withLock { state -> Bool in
                    if state.remaining <= 0 || state.cancelled { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.cancelled = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Whether every listener arrived (as opposed to the wait being cancelled).
    package var isOpen: Bool { self.state.withLock { $0.remaining <= 0 } }
}
