import Logging
import NIOCore
import ServiceLifecycle
import SyncmonCore
import SyncmonHost
import SyncmonLock
import SyncmonSystemd

/// Talks to systemd (docs/operations.md#systemd): `READY=1` once every listener is bound, `STATUS=` kept current,
/// `WATCHDOG=1` at half of `WATCHDOG_USEC` only while the event loops and the state model
/// answer, `STOPPING=1` on shutdown.
public final class SystemdNotifyService: Service, Sendable {
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

    public init(
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

    public func run() async throws {
        await self.readiness.wait()
        guard self.readiness.isOpen else { return }
        // Remembered as sent, so the first tick does not repeat it.
        let status = self.currentStatus()
        self.lastStatus.withLock { $0 = status }
        self.send([.ready, .status(status.text)])
        let interval = ((try? self.notifier.watchdogInterval()) ?? nil).map(Self.span)
        try? await cancelWhenGracefulShutdown {
            var schedule = WatchdogSchedule(interval: interval, start: self.clock.monotonicTime())
            // Start-up's pages go back now and once the rest of start-up is over, on this
            // loop's ticks (it wakes at least every second anyway).
            var pageOuts = StartupPages.Schedule(ready: self.clock.monotonicTime())
            while true {
                try await self.clock.sleep(for: schedule.tick)
                pageOuts.releaseIfDue(at: self.clock.monotonicTime())
                if schedule.isDue(at: self.clock.monotonicTime()) {
                    // A stuck event loop or lock never gets past these, so systemd's watchdog fires.
                    try await self.group.next().submit {}.get()
                    if self.store.isResponsive() {
                        self.send([.watchdog])
                        schedule.pinged(at: self.clock.monotonicTime())
                    }
                }
                self.updateStatus()
            }
        }
        self.send([.stopping, .status("stopping")])
    }

    /// Sends `STATUS=` when the text changed. Nothing before `READY=1`, which carries the first
    /// line: the host network view is taken, and may move restored pairs, before the listeners
    /// are bound.
    public func updateStatus() {
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
    public func reloading() { self.send([.reloading]) }
    public func reloaded() { self.send([.ready]) }

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
