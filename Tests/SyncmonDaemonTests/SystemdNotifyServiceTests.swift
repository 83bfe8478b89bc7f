import Logging
import NIOCore
import NIOPosix
import SyncmonCore
import SyncmonLock
import SyncmonSystemd
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

/// `SystemdNotifyService` on a hand-moved clock: when it pings systemd's watchdog (half of
/// `WATCHDOG_USEC`, checked every tick), with what it would send recorded instead of sent. No
/// process, no notify socket, no timing of real waits.
@Suite("systemd notify service on a manual clock", .timeLimit(.minutes(1)))
struct SystemdNotifyServiceTests {
    /// Records what the service sends, and when on the clock each `WATCHDOG=1` went out.
    final class Recorder: ServiceManagerNotifier {
        let interval: Duration?
        let clock: ManualClock
        let start: MonotonicInstant
        private let sent = Locked<(messages: [[NotifyMessage]], pings: [Int64])>(([], []))

        init(interval: Duration?, clock: ManualClock) {
            self.interval = interval
            self.clock = clock
            self.start = clock.monotonicTime()
        }

        func notify(_ messages: [NotifyMessage]) throws -> Bool {
            let elapsed = self.clock.monotonicTime().since(self.start).microseconds / 1000
            self.sent.withLock { sent in
                sent.messages.append(messages)
                if messages.contains(.watchdog) { sent.pings.append(elapsed) }
            }
            return true
        }

        func watchdogInterval() throws -> Duration? { self.interval }

        var messages: [[NotifyMessage]] { self.sent.withLock { $0.messages } }
        /// Milliseconds from the start to each ping.
        var pings: [Int64] { self.sent.withLock { $0.pings } }
    }

    /// Runs the service, moving the clock on by each of `steps` (milliseconds) once it sleeps.
    func run(interval: Duration?, steps: [Int64]) async throws -> Recorder {
        let clock = ManualClock(now: at(0))
        let recorder = Recorder(interval: interval, clock: clock)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let service = SystemdNotifyService(
            store: MonitorStore(configuration: MonitorConfiguration()),
            group: group,
            readiness: ReadinessLatch(count: 0),
            clock: clock,
            notifier: recorder,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let task = Task { try await service.run() }
        // A look every second, or every ping interval when that is shorter.
        let tick = TimeSpan(microseconds: min(interval.map { Int64($0 / .microseconds(1)) } ?? 1_000_000, 1_000_000))
        for step in steps {
            // Asleep for a tick from now: the previous wake (and any ping) is done.
            let asleep = await Polling.until(interval: .milliseconds(1)) { clock.sleepingUntil == [clock.wallTime().adding(tick)] }
            #expect(asleep, "sleeping until \(clock.sleepingUntil)")
            clock.advance(by: TimeSpan(microseconds: step * 1000))
        }
        _ = await Polling.until(interval: .milliseconds(1)) { clock.sleepingUntil == [clock.wallTime().adding(tick)] }
        task.cancel()
        try await task.value
        try await group.shutdownGracefully()
        return recorder
    }

    @Test(
        "WATCHDOG=1 once the interval has passed, looked at every tick (at most a second)",
        arguments: [
            // WATCHDOG_USEC=1s: every half second.
            (Duration.milliseconds(500), [Int64](repeating: 500, count: 6), [Int64(500), 1_000, 1_500, 2_000, 2_500, 3_000]),
            // WATCHDOG_USEC=6s: every 3 s, looked at every second.
            (.seconds(3), [Int64](repeating: 1_000, count: 9), [3_000, 6_000, 9_000]),
            // A late wake (a busy host) pings late, and the next interval counts from that ping.
            (.seconds(3), [1_000, 1_000, 1_400, 1_000, 1_000, 1_000], [3_400, 6_400]),
            // Within half a tick of the interval is close enough: a ping early rather than a tick late.
            (.milliseconds(2_400), [Int64](repeating: 1_000, count: 6), [2_000, 4_000, 6_000]),
            // The watchdog off (or meant for another process): STATUS= only.
            (nil, [Int64](repeating: 1_000, count: 4), []),
        ] as [(Duration?, [Int64], [Int64])])
    func pings(interval: Duration?, steps: [Int64], expected: [Int64]) async throws {
        let recorder = try await self.run(interval: interval, steps: steps)
        #expect(recorder.pings == expected)
        let messages = recorder.messages
        #expect(messages.first?.first == .ready, "READY=1 first: \(messages)")
        #expect(messages.last == [.stopping, .status("stopping")], "STOPPING=1 last: \(messages)")
    }
}
