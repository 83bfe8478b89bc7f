import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// The host's real-time clock: the daemon's "now". The core never reads a clock; this is the
/// one place the daemon does.
public enum WallClock {
    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }
}
