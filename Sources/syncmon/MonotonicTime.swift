import SyncmonCore

/// The monotonic clock (the standard library's `ContinuousClock`) as seconds and timestamps
/// from an arbitrary origin: for `wrap`'s rates, ticks and timeouts, which must not jump when
/// the wall clock is stepped. Event times come from `WallClock`.
enum MonotonicTime {
    private static let origin = ContinuousClock.now

    /// Seconds since the origin.
    static func seconds() -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - Self.origin).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Microseconds since the origin, as a `Timestamp` for the core's rate gates.
    static func timestamp() -> Timestamp {
        let (seconds, attoseconds) = (ContinuousClock.now - Self.origin).components
        return Timestamp(microseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
