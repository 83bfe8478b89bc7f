import SyncmonCore
import SyncmonHost

/// The clock a time-driven service reads and sleeps on: the host's clock in the daemon, one a
/// test moves by hand in the service tests (no real waiting, no timing of real processes).
public protocol ServiceClock: Sendable {
    /// Now, on the clock event times and stall deadlines are measured with.
    func now() -> Timestamp
    /// Returns at `deadline` (at once if it has passed); throws when the task is cancelled.
    func sleep(until deadline: Timestamp) async throws
}

/// The host's real-time clock, which event times and deadlines use; sleeps go by the
/// monotonic clock for the time left, so they are not cut short or stretched by a step of
/// the real-time clock while asleep (callers bound their sleeps to notice such steps).
public struct SystemServiceClock: ServiceClock {
    public init() {}

    public func now() -> Timestamp {
        WallClock.now()
    }

    public func sleep(until deadline: Timestamp) async throws {
        let left = deadline.microseconds &- self.now().microseconds
        guard left > 0 else { return }
        try await Task.sleep(for: .microseconds(left))
    }
}
