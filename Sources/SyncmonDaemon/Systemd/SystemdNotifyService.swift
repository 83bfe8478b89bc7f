import Logging
import NIOCore
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonLock
import SyncmonSystemd

/// Talks to systemd (docs/operations.md#systemd): `READY=1` once every listener is bound, `STATUS=` kept current,
/// `WATCHDOG=1` at half of `WATCHDOG_USEC` only while the event loops and the state model
/// answer, `STOPPING=1` on shutdown.
package final class SystemdNotifyService: Service, Sendable {
    private let notifier: any ServiceManagerNotifier
    private let store: MonitorStore
    private let group: any EventLoopGroup
    private let clock: any ServiceClock
    private let readiness: ReadinessLatch
    private let logger: Logger
    /// The last STATUS text sent, to send only changes, and the store generation it was
    /// computed at: an unchanged state model has an unchanged line, so it is not recomputed
    /// (at 10,000 pairs that was most of an idle daemon's CPU).
    private let lastStatus = Locked<(text: String, generation: UInt64)?>(nil)

    package init(
        store: MonitorStore,
        group: any EventLoopGroup,
        readiness: ReadinessLatch,
        clock: any ServiceClock,
        notifier: any ServiceManagerNotifier,
        logger: Logger
    ) {
        self.notifier = notifier
        self.store = store
        self.group = group
        self.clock = clock
        self.readiness = readiness
        self.logger = logger
    }

    package func run() async throws {
        await self.readiness.wait()
        guard self.readiness.isOpen else { return }
        // Remembered as sent, so the first look does not repeat it.
        let status = self.currentStatus()
        self.lastStatus.withLock { $0 = status }
        self.send([.ready, .status(status.text)])
        let interval = ((try? self.notifier.watchdogInterval()) ?? nil).map(Self.span)
        try? await cancelWhenGracefulShutdown {
            try await self.follow(watchdog: WatchdogSchedule(interval: interval, start: self.clock.monotonicTime()))
        }
        self.send([.stopping, .status("stopping")])
    }

    /// The shortest time between two looks at `STATUS=` prompted by changes: what the line
    /// costs to compute stays bounded under load (`StatusSchedule`).
    static let statusSpacing = TimeSpan.seconds(Int64(1))

    /// Pings and looks at `STATUS=`, each when it is due, until cancelled. Between them it
    /// sleeps: until the next ping, or until the state model changes. An
    /// idle daemon's notify service wakes only for its pings (it used to tick every second).
    private func follow(watchdog initial: WatchdogSchedule) async throws {
        var watchdog = initial
        var status = StatusSchedule(spacing: Self.statusSpacing)
        while true {
            let now = self.clock.monotonicTime()
            if watchdog.isDue(at: now) {
                // A stuck event loop or lock never gets past these, so systemd's watchdog fires.
                try await self.group.next().submit {}.get()
                if self.store.isResponsive() {
                    self.send([.watchdog])
                    watchdog.pinged(at: self.clock.monotonicTime())
                }
            }
            // Any wake looks whether the state moved since the line was sent (one lock): a
            // change whose signal a deadline's wake overtook is not left waiting for the next.
            if self.isStatusStale { status.changed(at: now) }
            if status.isDue(at: now) {
                self.updateStatus()
                status.looked(at: now)
            }
            let deadlines = [watchdog.nextPing, status.due].compactMap { $0 }
            // A change already waits its turn: more news changes nothing until then.
            await self.sleep(until: deadlines.min(), orChange: status.due == nil)
            try Task.checkCancellation()
        }
    }

    /// Sleeps until `deadline` (forever when `nil`), or, if `orChange`, until the state model
    /// changes; returns when cancelled too.
    private func sleep(until deadline: MonotonicInstant?, orChange: Bool) async {
        let (clock, store) = (self.clock, self.store)
        await withTaskGroup(of: Void.self) { group in
            if let deadline { group.addTask { try? await clock.sleep(until: deadline) } }
            if orChange { group.addTask { await store.waitForChange() } }
            await group.next()
            group.cancelAll()
        }
    }

    /// Whether the state model moved since `STATUS=` was last computed.
    private var isStatusStale: Bool {
        let generation = self.store.generation
        return self.lastStatus.withLock { $0?.generation } != generation
    }

    /// Sends `STATUS=` when the text changed. Nothing before `READY=1`, which carries the first
    /// line: the host network view is taken, and may move restored pairs, before the listeners
    /// are bound.
    package func updateStatus() {
        let generation = self.store.generation
        guard let sent = self.lastStatus.withLock({ $0?.generation }), sent != generation else { return }
        let status = self.currentStatus()
        let changed = self.lastStatus.withLock { last -> Bool in
            defer { last = status }
            return last?.text != status.text
        }
        if changed { self.send([.status(status.text)]) }
    }

    /// Brackets a configuration reload for systemd (Debian 12's systemd has no notify-reload).
    package func reloading() { self.send([.reloading]) }
    package func reloaded() { self.send([.ready]) }

    private func currentStatus() -> (text: String, generation: UInt64) {
        let snapshot = self.store.snapshot()
        return (StatusLine.text(summaries: snapshot.monitor.summaries(at: self.clock.wallTime())), snapshot.generation)
    }

    /// `interval` in whole microseconds (sd_watchdog_enabled's unit).
    private static func span(_ interval: Duration) -> TimeSpan {
        let (seconds, attoseconds) = interval.components
        return TimeSpan(microseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    private func send(_ messages: [NotifyMessage]) {
        do {
            _ = try self.notifier.notify(messages)
        } catch {
            self.logger.debug("sd_notify failed", metadata: [SyncmonMetadataKey.reason: "\(error)"])
        }
    }
}
