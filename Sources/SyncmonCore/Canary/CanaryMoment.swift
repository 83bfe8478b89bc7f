/// A reading of this host's monotonic clock: microseconds since an arbitrary start (the boot).
///
/// The canary measures every interval on it (docs/canary.md): a step of the real-time clock
/// (NTP, a resumed VM, an operator's `date -s`) changes no move, round trip or deadline.
public struct MonotonicInstant: Hashable, Comparable, Sendable {
    /// Microseconds since the clock's start.
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// This instant moved by `span`, saturating instead of overflowing.
    public func adding(_ span: TimeSpan) -> MonotonicInstant {
        let (sum, overflow) = self.microseconds.addingReportingOverflow(span.microseconds)
        return MonotonicInstant(microseconds: overflow ? (span.microseconds > 0 ? .max : .min) : sum)
    }

    /// The time from `earlier` to this instant.
    public func since(_ earlier: MonotonicInstant) -> TimeSpan {
        let (difference, overflow) = self.microseconds.subtractingReportingOverflow(earlier.microseconds)
        return TimeSpan(microseconds: overflow ? (earlier.microseconds > 0 ? .min : .max) : difference)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.microseconds < rhs.microseconds }
}

/// One moment as the canary takes it in: the monotonic reading every rule uses, and the
/// real-time reading that is only shown (`written`, `lastMoved`).
public struct CanaryMoment: Hashable, Sendable {
    /// What moves, round trips and deadlines are measured on.
    public var monotonic: MonotonicInstant
    /// What status, metrics and the canary file show; never compared.
    public var wall: Timestamp

    public init(monotonic: MonotonicInstant, wall: Timestamp) {
        self.monotonic = monotonic
        self.wall = wall
    }
}
