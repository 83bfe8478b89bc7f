import SyncmonClient
import SyncmonTestSupport

/// The thread the clients under test run their connection tasks on.
///
/// Swift Testing runs every suite's tests on the cooperative pool, two threads on a two-core
/// machine; with CPU-bound tests and real daemons beside them, a connection task there could
/// wait seconds for a thread, and a test's deadline would measure the pool, not the client.
/// On a thread of its own (which its child tasks and timers inherit) it runs when it is due.
let clientExecutor = ThreadExecutor(name: "SyncmonClient tests")

/// Starts `client.run()` on ``clientExecutor``.
func runInBackground(_ client: SyncmonClient) -> Task<Void, any Error> {
    Task(executorPreference: clientExecutor) { try await client.run() }
}

/// Starts `client.run()` on ``clientExecutor``; the task's value is the moment `run()` returned,
/// read on that thread: a test timing a stop measures the client, not how long the test's own
/// task then waited for a pool thread to look.
func runTimed(_ client: SyncmonClient) -> Task<ContinuousClock.Instant, any Error> {
    Task(executorPreference: clientExecutor) {
        try await client.run()
        return ContinuousClock.now
    }
}
