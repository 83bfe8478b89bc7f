import Logging
import NIOCore
import NIOPosix
import SyncmonContractTesting
import SyncmonCore
import SyncmonLock
import SyncmonSystemd
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

/// `SystemdNotifyService` on a hand-moved clock: when it pings systemd's watchdog (half of
/// `WATCHDOG_USEC`, exactly when due), when it sends `STATUS=` (at a change, at most once a
/// second), and that it sleeps in between with no tick of its own; what it would send is
/// recorded instead of sent. No process, no notify socket, no timing of real waits.
@Suite("systemd notify service on a manual clock", .timeLimit(.minutes(1)))
struct SystemdNotifyServiceTests {
    /// Records what the service sends, and when on the clock (milliseconds from the start).
    final class Recorder: ServiceManagerNotifier {
        let interval: Duration?
        let clock: ManualClock
        let start: MonotonicInstant
        private let sent = Locked<[(elapsed: Int64, messages: [NotifyMessage])]>([])

        init(interval: Duration?, clock: ManualClock) {
            self.interval = interval
            self.clock = clock
            self.start = clock.monotonicTime()
        }

        func notify(_ messages: [NotifyMessage]) throws -> Bool {
            let elapsed = self.clock.monotonicTime().since(self.start).microseconds / 1000
            self.sent.withLock { $0.append((elapsed, messages)) }
            return true
        }

        func watchdogInterval() throws -> Duration? { self.interval }

        var messages: [[NotifyMessage]] { self.sent.withLock { $0.map(\.messages) } }
        /// Milliseconds from the start to each ping.
        var pings: [Int64] { self.sent.withLock { $0.filter { $0.messages.contains(.watchdog) }.map(\.elapsed) } }
        /// Each `STATUS=` text (but the one sent on stopping) and when it went out.
        var statuses: [(elapsed: Int64, text: String)] {
            self.sent.withLock { sent in
                sent.flatMap { entry in
                    entry.messages.compactMap { message -> (Int64, String)? in
                        guard case .status(let text) = message, text != "stopping" else { return nil }
                        return (entry.elapsed, text)
                    }
                }
            }
        }
    }

    /// The service running on a manual clock over its own store.
    final class Running: Sendable {
        let clock = ManualClock(now: at(0))
        let store = MonitorStore(configuration: MonitorConfiguration())
        let recorder: Recorder
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        private let task = Locked<Task<Void, any Error>?>(nil)

        init(interval: Duration?) {
            self.recorder = Recorder(interval: interval, clock: self.clock)
            let service = SystemdNotifyService(
                store: self.store,
                group: self.group,
                readiness: ReadinessLatch(count: 0),
                clock: self.clock,
                notifier: self.recorder,
                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
            )
            self.task.withLock { $0 = Task(executorPreference: serviceExecutor) { try await service.run() } }
        }

        /// Whether the service comes to sleep until exactly `elapsed` milliseconds from the start
        /// and on nothing else of the clock's (`nil`: on no deadline at all).
        func sleeps(until elapsed: Int64?) async -> Bool {
            let expected = elapsed.map { [at(0).adding(TimeSpan(microseconds: $0 * 1000))] } ?? []
            return await Polling.until(interval: .milliseconds(1)) { self.clock.sleepingUntil == expected }
        }

        /// Moves the clock to `elapsed` milliseconds from the start.
        func advance(to elapsed: Int64) {
            self.clock.advance(to: at(0).adding(TimeSpan(microseconds: elapsed * 1000)))
        }

        /// Applies an event line at the clock's now, as a push connection's read does.
        func send(_ line: String) {
            _ = feed(self.store, line + "\n", now: self.clock.wallTime())
        }

        /// Whether `count` `STATUS=` lines have gone out.
        func statusCount(_ count: Int) async -> Bool {
            await Polling.until(interval: .milliseconds(1)) { self.recorder.statuses.count >= count }
        }

        /// Stops the service (as a graceful shutdown does) and its event loop.
        func stop() async throws {
            let task = self.task.withLock { $0 }
            task?.cancel()
            try await task?.value
            try await self.group.shutdownGracefully()
        }
    }

    /// One step of a run: the deadline the service must be asleep until (milliseconds from the
    /// start), and the time the clock is then moved to (a late wake when later).
    struct Step: Sendable, CustomTestStringConvertible {
        var sleepsUntil: Int64
        var wakesAt: Int64
        var testDescription: String { self.sleepsUntil == self.wakesAt ? "\(self.wakesAt)" : "\(self.sleepsUntil)→\(self.wakesAt)" }

        static func on(_ time: Int64) -> Step { Step(sleepsUntil: time, wakesAt: time) }
    }

    @Test(
        "WATCHDOG=1 exactly when the interval has passed, and asleep until then",
        arguments: [
            // WATCHDOG_USEC=1s: every half second.
            (
                Duration.milliseconds(500), [500, 1_000, 1_500, 2_000, 2_500, 3_000].map(Step.on), [Int64(500), 1_000, 1_500, 2_000, 2_500, 3_000],
                Int64?(3_500)
            ),
            // WATCHDOG_USEC=6s: every 3 s, with no look in between.
            (.seconds(3), [3_000, 6_000, 9_000].map(Step.on), [3_000, 6_000, 9_000], 12_000),
            // A late wake (a busy host) pings late, and the next interval counts from that ping.
            (.seconds(3), [Step(sleepsUntil: 3_000, wakesAt: 3_400), .on(6_400)], [3_400, 6_400], 9_400),
            // An interval that is no whole number of seconds is kept to the millisecond.
            (.milliseconds(2_400), [2_400, 4_800, 7_200].map(Step.on), [2_400, 4_800, 7_200], 9_600),
            // The watchdog off (or meant for another process): no wake at all.
            (nil, [], [], nil),
        ] as [(Duration?, [Step], [Int64], Int64?)])
    func pings(interval: Duration?, steps: [Step], expected: [Int64], last: Int64?) async throws {
        let running = Running(interval: interval)
        for step in steps {
            #expect(await running.sleeps(until: step.sleepsUntil), "sleeping until \(running.clock.sleepingUntil), not \(step.sleepsUntil)")
            running.advance(to: step.wakesAt)
        }
        #expect(await running.sleeps(until: last), "sleeping until \(running.clock.sleepingUntil) at the end")
        try await running.stop()
        #expect(running.recorder.pings == expected)
        let messages = running.recorder.messages
        #expect(messages.first?.first == .ready, "READY=1 first: \(messages)")
        #expect(messages.last == [.stopping, .status("stopping")], "STOPPING=1 last: \(messages)")
    }

    @Test("STATUS= follows a change at once, a second after the last look at most, and nothing wakes the service in between")
    func statusFollowsChanges() async throws {
        let running = Running(interval: nil)
        #expect(await running.statusCount(1))
        #expect(await running.sleeps(until: nil))
        // Idle since READY=1: the first change goes out at once.
        running.send(#"{"v":1,"engine":"notes","type":"heartbeat"}"#)
        #expect(await running.statusCount(2))
        // The next, in the same instant, waits a second from that look.
        running.send(#"{"v":1,"engine":"photos","type":"heartbeat"}"#)
        #expect(await running.sleeps(until: 1_000), "sleeping until \(running.clock.sleepingUntil)")
        running.advance(to: 1_000)
        #expect(await running.statusCount(3))
        #expect(await running.sleeps(until: nil))
        running.advance(to: 5_000)
        // Long after the last look: at once again.
        running.send(#"{"v":1,"engine":"docs","type":"heartbeat"}"#)
        #expect(await running.statusCount(4))
        #expect(await running.sleeps(until: nil))
        try await running.stop()
        let statuses = running.recorder.statuses
        #expect(statuses.map(\.elapsed) == [0, 0, 1_000, 5_000], "\(statuses)")
        #expect(statuses.map(\.text).map { $0.prefix(while: { $0 != ":" }) } == ["no engines yet", "1 engine", "2 engines", "3 engines"], "\(statuses)")
    }
}
