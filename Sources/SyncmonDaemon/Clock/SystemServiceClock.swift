import SyncmonCore

#if canImport(Glibc)
import Glibc
import SyncmonHost
#endif

/// The host's clocks: the daemon's one place that reads them (every service is handed this).
/// `CLOCK_MONOTONIC` does not count time suspended: a host asleep could not have synced, so,
/// like a suppression, that time does not make a canary late (docs/canary.md).
public struct SystemServiceClock: ServiceClock {
    public init() {}

    public func wallTime() -> Timestamp {
        WallClock.now()
    }

    public func monotonicTime() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        let left = deadline.since(self.monotonicTime()).microseconds
        guard left > 0 else { return }
        try await Task.sleep(for: .microseconds(left))
    }
}
