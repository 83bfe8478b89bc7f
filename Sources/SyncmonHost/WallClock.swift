import SyncmonCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's real-time clock: "now" for the daemon, the client library and the command line
/// (event times, stall deadlines, saved state). The core never reads a clock; this is the one
/// place the real-time clock is read.
public enum WallClock {
    public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(microseconds: Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000)
    }
}
