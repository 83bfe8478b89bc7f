import SyncmonTestSupport
import Testing

/// The thread that services under test on a manual clock run on.
///
/// The tests wait (10 s at most) for a service to come to sleep on its manual clock; on Swift's
/// cooperative pool, shared with every suite of the run, the service's task could wait longer
/// than that for a thread, and the test would measure the pool, not the service. Started with
/// `Task(executorPreference: serviceExecutor)`, its tasks run here when they are due.
let serviceExecutor = ThreadExecutor(name: "services under test")

/// Runs a test's body on ``serviceExecutor``: for a test whose looks at a real daemon are timed
/// against the daemon's own clock (a heartbeat promise of a few seconds), which on the shared
/// cooperative pool could come late for want of a thread, not for anything the daemon did.
struct OnItsOwnThread: TestTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(serviceExecutor) { try await function() }
    }
}

extension Trait where Self == OnItsOwnThread {
    /// See ``OnItsOwnThread``.
    static var onItsOwnThread: Self { Self() }
}
