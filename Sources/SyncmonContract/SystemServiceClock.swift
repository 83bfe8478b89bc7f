import SyncmonCore
import SyncmonHost

/// The host's clocks, as every service is handed them: `SyncmonHost`'s `WallClock` and
/// `MonotonicClock` are the only code that reads them. `CLOCK_MONOTONIC` does not count time
/// suspended: a host asleep could not have synced, so, like a suppression, that time does not
/// make a canary late (docs/canary.md).
public struct SystemServiceClock: ServiceClock {
    public init() {}

    public func wallTime() -> Timestamp {
        WallClock.now()
    }

    public func monotonicTime() -> MonotonicInstant {
        MonotonicClock.now()
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        let left = deadline.since(self.monotonicTime()).microseconds
        guard left > 0 else { return }
        try await Task.sleep(for: .microseconds(left))
    }
}
