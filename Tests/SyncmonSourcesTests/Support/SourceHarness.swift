import Logging
import NIOPosix
import SyncmonContract
import SyncmonContractTesting
import SyncmonCore
import SyncmonTestSupport

@testable import SyncmonSources

/// One source run in process for a test: a manual clock, a recording model, a state directory
/// of its own, and the source's task, cancelled at the end as graceful shutdown would.
final class SourceHarness: Sendable {
    let clock = ManualClock(now: Timestamp(seconds: 1_795_000_000))
    let model = RecordingSourceModel()
    let directory: TemporaryDirectory
    let health: SourceHealth
    let context: SourceContext

    init(name: String, kind: String) throws {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        self.directory = try TemporaryDirectory(prefix: "smsrc")
        self.health = SourceHealth(name: name, kind: kind, clock: self.clock, start: self.clock.wallTime(), logger: logger)
        self.context = SourceContext(
            name: name,
            model: self.model,
            group: MultiThreadedEventLoopGroup.singleton,
            clock: self.clock,
            health: self.health,
            stateDirectory: self.directory.path,
            maximumLineLength: 65_536,
            logger: logger
        )
    }

    /// Runs `source` until `body` returns, then cancels it and waits for it to stop.
    func run(_ source: any EventSource, _ body: () async throws -> Void) async rethrows {
        let context = self.context
        let task = Task(executorPreference: serviceExecutor) { await source.run(in: context) }
        defer { task.cancel() }
        try await body()
        task.cancel()
        await task.value
    }

    /// Lets the source run to its next sleep and moves the clock to that sleep's end, until
    /// `condition` holds or `steps` sleeps have passed: the source's time is the test's.
    func advance(until condition: @Sendable () -> Bool, steps: Int = 40) async -> Bool {
        for _ in 0..<steps {
            if condition() { return true }
            guard await Polling.until({ condition() || !self.clock.sleepingUntil.isEmpty }) else { return false }
            if condition() { return true }
            if let first = self.clock.sleepingUntil.first { self.clock.advance(to: first) }
        }
        return condition()
    }
}
