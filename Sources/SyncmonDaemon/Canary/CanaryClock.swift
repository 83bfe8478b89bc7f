import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
#endif

/// The clock canaries read and sleep on: this host's monotonic clock for every rule, with
/// the real-time reading beside it for display (docs/canary.md).
public protocol CanaryClock: Sendable {
    /// Now, on both clocks.
    func now() -> CanaryMoment
    /// Returns at `deadline` on the monotonic clock (at once if it has passed); throws when
    /// the task is cancelled.
    func sleep(until deadline: MonotonicInstant) async throws
}

/// The host's clocks. `CLOCK_MONOTONIC` does not count time suspended: a host asleep could
/// not have synced, so, like a suppression, that time does not make a canary late.
public struct SystemCanaryClock: CanaryClock {
    public init() {}

    public func now() -> CanaryMoment {
        CanaryMoment(monotonic: Self.monotonic(), wall: WallClock.now())
    }

    static func monotonic() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        let left = deadline.since(Self.monotonic()).microseconds
        guard left > 0 else { return }
        try await Task.sleep(for: .microseconds(left))
    }
}
