import Foundation

/// A task executor with a thread of its own, and a way to run blocking work off Swift's
/// cooperative pool.
///
/// The pool has as many threads as the machine has cores (two in CI), and Swift Testing runs
/// every test on it in parallel. A test that blocks a pool thread (a CPU-bound render, a child
/// process waited for) delays every other test's tasks; a task whose timing is under test (a
/// client's connection loop with a 10 s deadline) then fails for want of a thread, not for its
/// code. Such tasks run here instead (`Task(executorPreference: executor) { … }`, which their
/// child tasks inherit), and blocking work runs through ``run(_:)``: the kernel then shares the
/// cores between threads fairly, and the pool stays free.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by `condition`, which is signalled when a job arrives.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// Starts the executor's thread, named `name` (it shows in a debugger and in `top -H`).
    /// The thread lives as long as the process: keep executors in `static let`s.
    public init(name: String) {
        let thread = Thread { [self] in self.runJobs() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        self.condition.lock()
        self.jobs.append(job)
        self.condition.signal()
        self.condition.unlock()
    }

    private func runJobs() {
        while true {
            self.condition.lock()
            while self.jobs.isEmpty { self.condition.wait() }
            let batch = self.jobs
            self.jobs.removeAll(keepingCapacity: true)
            self.condition.unlock()
            for job in batch { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Runs `body` on a new thread and waits for it without holding a pool thread: for a child
    /// process waited for, a blocking socket, or seconds of CPU-bound work in a test.
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = "ThreadExecutor.run"
            thread.start()
        }
    }
}
