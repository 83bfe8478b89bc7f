import SyncmonCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's monotonic clock (`CLOCK_MONOTONIC`), for intervals that must not jump when the
/// real-time clock is stepped (NTP, a resumed VM, `date -s`): `wrap`'s ticks, rates and
/// timeouts, a canary's moves. It does not count time suspended. Event times come from
/// ``WallClock``.
public enum MonotonicClock {
    public static func now() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }
}
