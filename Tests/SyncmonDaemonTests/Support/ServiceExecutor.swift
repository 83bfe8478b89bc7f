import SyncmonTestSupport

/// The thread that services under test on a manual clock run on.
///
/// The tests wait (10 s at most) for a service to come to sleep on its manual clock; on Swift's
/// cooperative pool, shared with every suite of the run, the service's task could wait longer
/// than that for a thread, and the test would measure the pool, not the service. Started with
/// `Task(executorPreference: serviceExecutor)`, its tasks run here when they are due.
let serviceExecutor = ThreadExecutor(name: "services under test")
