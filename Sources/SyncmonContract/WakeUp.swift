import SyncmonLock

/// A signal one task waits for and any thread gives: the evaluation service sleeping until its
/// next deadline, woken early when an event brings a closer one.
///
/// A signal given while nobody waits is kept (one, not counted), so a change that lands
/// between the service's look and its wait is not missed.
package final class WakeUp: Sendable {
    /// What the lock protects.
    private struct State {
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    package init() {}

    /// Wakes the waiter, or the next one to wait.
    package func signal() {
        let waiter = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.signalled = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next signal (at once if one was given since the last wait), or when the
    /// task is cancelled. One waiter at a time.
    package func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = self.state.withLock { state in
                    // Checked under the lock: a cancellation that came before the waiter is
                    // stored finds no waiter to resume, so it must be seen here.
                    if state.signalled || Task.isCancelled {
                        state.signalled = false
                        return true
                    }
                    precondition(state.waiter == nil, "one waiter at a time")
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = self.state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
