import SyncmonCore

/// The clock every service reads and sleeps on, passed in at init: the host's in the daemon
/// (`SystemServiceClock`, the one place the host's clocks are read), one a test moves by hand
/// in the service tests (no real waiting, no timing of real processes).
///
/// Two readings: the real-time clock, which event times, stall deadlines and saved state use,
/// and the monotonic clock, which intervals are measured on (the watchdog's, a canary's moves,
/// a rotated file's grace), so that a step of the real-time clock (NTP, a resumed VM, an
/// operator's `date -s`) neither stretches nor cuts them.
public protocol ServiceClock: Sendable {
    /// The real-time clock's reading: what event times and stall deadlines are measured with.
    func wallTime() -> Timestamp
    /// The monotonic clock's reading: what intervals are measured on.
    func monotonicTime() -> MonotonicInstant
    /// Returns at `deadline` on the monotonic clock (at once if it has passed); throws when
    /// the task is cancelled.
    func sleep(until deadline: MonotonicInstant) async throws
}

extension ServiceClock {
    /// Both readings, as the canary takes them in.
    public func moment() -> CanaryMoment {
        CanaryMoment(monotonic: self.monotonicTime(), wall: self.wallTime())
    }

    /// Returns after `span` on the monotonic clock; throws when the task is cancelled.
    public func sleep(for span: TimeSpan) async throws {
        try await self.sleep(until: self.monotonicTime().adding(span))
    }

    /// Returns at the real-time `deadline`: sleeps the time left on the monotonic clock, so a
    /// step of the real-time clock while asleep neither cuts the sleep short nor stretches it
    /// (callers bound their sleeps to notice such steps).
    public func sleep(until deadline: Timestamp) async throws {
        try await self.sleep(for: deadline.since(self.wallTime()))
    }
}

extension TimeSpan {
    /// The longest sleep toward a real-time deadline. Deadlines are real-time instants and
    /// sleeps run on the monotonic clock, so a step of the host's clock (NTP, a resumed VM) is
    /// noticed within this.
    package static let longestSleep = TimeSpan.seconds(Int64(10))
}
