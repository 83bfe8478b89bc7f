import SyncmonCore

/// When `SystemdNotifyService` looks at `STATUS=` again, on the monotonic clock: as soon as the
/// state model changed, but at most once per `spacing`, so a daemon taking thousands of events
/// a second recomputes the line (every pair's summary) once a second, as the old one-second
/// tick did, while an idle one does not wake at all.
struct StatusSchedule: Sendable, Equatable {
    /// The shortest time between two looks.
    let spacing: TimeSpan
    /// When the change seen but not yet looked at is to be looked at; `nil` when none waits.
    private(set) var due: MonotonicInstant?
    /// When the last look was.
    private var lastLook: MonotonicInstant?

    init(spacing: TimeSpan) {
        self.spacing = spacing
    }

    /// The state model changed (seen at `now`): a look is due now, or a spacing after the last.
    mutating func changed(at now: MonotonicInstant) {
        guard self.due == nil else { return }
        self.due = self.lastLook.map { max(now, $0.adding(self.spacing)) } ?? now
    }

    /// Whether a look is due at `now`.
    func isDue(at now: MonotonicInstant) -> Bool {
        self.due.map { now >= $0 } ?? false
    }

    /// The service looked at `now`.
    mutating func looked(at now: MonotonicInstant) {
        self.lastLook = now
        self.due = nil
    }
}
