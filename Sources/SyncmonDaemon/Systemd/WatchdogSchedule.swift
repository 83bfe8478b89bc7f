import SyncmonCore

/// When `SystemdNotifyService` wakes and when it pings systemd's watchdog, on the monotonic
/// clock: it wakes every tick (a second, or the ping interval when shorter, so `STATUS=`
/// follows changes promptly), and a ping is due once the interval since the last one has
/// passed, give or take half a tick (so a wake a little early does not put it off a tick).
struct WatchdogSchedule: Sendable, Equatable {
    /// Half of `WATCHDOG_USEC`; `nil` when the watchdog is off or meant for another process.
    let interval: TimeSpan?
    /// How long the service sleeps between looks.
    let tick: TimeSpan
    /// When systemd last heard `WATCHDOG=1` (at first, the start: `READY=1` counts as one).
    private(set) var lastPing: MonotonicInstant

    init(interval: TimeSpan?, start: MonotonicInstant) {
        self.interval = interval
        self.tick = min(interval ?? .seconds(Int64(1)), .seconds(Int64(1)))
        self.lastPing = start
    }

    /// Whether a look at `now` should ping (once the event loops and the store answer).
    func isDue(at now: MonotonicInstant) -> Bool {
        guard let interval = self.interval else { return false }
        return now.since(self.lastPing) >= TimeSpan(microseconds: interval.microseconds - self.tick.microseconds / 2)
    }

    /// The ping went out at `now`.
    mutating func pinged(at now: MonotonicInstant) {
        self.lastPing = now
    }
}
