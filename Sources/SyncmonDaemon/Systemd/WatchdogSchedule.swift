import SyncmonCore

/// When `SystemdNotifyService` pings systemd's watchdog, on the monotonic clock: once the
/// interval since the last ping has passed. The service sleeps until exactly then (or until
/// the state model changes), so an idle daemon wakes for its pings and nothing else; it used
/// to look every second, pinging within half a tick of the interval.
struct WatchdogSchedule: Sendable, Equatable {
    /// Half of `WATCHDOG_USEC`; `nil` when the watchdog is off or meant for another process.
    let interval: TimeSpan?
    /// When systemd last heard `WATCHDOG=1` (at first, the start: `READY=1` counts as one).
    private(set) var lastPing: MonotonicInstant

    init(interval: TimeSpan?, start: MonotonicInstant) {
        self.interval = interval
        self.lastPing = start
    }

    /// When the next ping is due; `nil` when there are none.
    var nextPing: MonotonicInstant? {
        self.interval.map { self.lastPing.adding($0) }
    }

    /// Whether a look at `now` should ping (once the event loops and the store answer).
    func isDue(at now: MonotonicInstant) -> Bool {
        guard let next = self.nextPing else { return false }
        return now >= next
    }

    /// The ping went out at `now`.
    mutating func pinged(at now: MonotonicInstant) {
        self.lastPing = now
    }
}
