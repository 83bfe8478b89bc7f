import SyncmonTestSupport

/// The thread that sources and services under test on a manual clock run on: on Swift's
/// cooperative pool, shared with every suite of the run, their tasks could wait longer for a
/// thread than the tests wait for them, and the test would measure the pool, not the source.
let serviceExecutor = ThreadExecutor(name: "sources under test")
