import Foundation

/// Waits for conditions instead of sleeping blindly: each helper looks at a condition every
/// `interval` until it is settled or a deadline passes, so a fast machine finishes fast and a slow
/// one still passes. The only place the tests wait for time (real processes and real files
/// change on their own clock; everything in the daemon that can take a clock takes a manual one).
///
/// Without an `interval`, the looks start 25 ms apart and spread out to 100 ms: most conditions
/// hold within a few looks, and a long wait on a loaded machine (the test command runs the suites
/// beside the end-to-end phases on two cores) no longer scrapes a daemon forty times a second,
/// which made the suites take three times the CPU they take alone. A test that times what it
/// waits for passes its own `interval` and is looked at that often throughout.
public enum Polling {
    /// The first gap between looks when the caller gives none, and the widest it grows to.
    static let firstInterval = Duration.milliseconds(25)
    static let widestInterval = Duration.milliseconds(100)

    /// Polls `condition` every `interval` (or spreading out, without one) until it is true
    /// (returns `true`) or `timeout` passes (returns `false`).
    public static func until(
        timeout: Duration = .seconds(10),
        interval: Duration? = nil,
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        try await self.look(for: timeout, every: interval) { try await condition() ? true : nil } ?? false
    }

    /// Polls `produce` until it returns a value (returned) or `timeout` passes (`nil`).
    public static func value<Value>(
        timeout: Duration = .seconds(10),
        interval: Duration? = nil,
        _ produce: () async throws -> Value?
    ) async rethrows -> Value? {
        try await self.look(for: timeout, every: interval, produce)
    }

    /// Checks `condition` every `interval` for `duration`: `true` when it held at every look,
    /// `false` at the first look where it did not. For "nothing changes while…" assertions
    /// (no stall while data moves, nothing counted twice later), which a single look after a
    /// sleep would check at one instant only.
    public static func holds(
        for duration: Duration,
        interval: Duration = .milliseconds(50),
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        try await self.look(for: duration, every: interval) { try await condition() ? nil : () } == nil
    }

    /// Calls `produce` every `interval` (without one, at gaps growing by half from
    /// `firstInterval` to `widestInterval`) until it gives a value or `duration` has passed; it
    /// is called at least once, and once more at the deadline.
    private static func look<Value>(
        for duration: Duration,
        every interval: Duration?,
        _ produce: () async throws -> Value?
    ) async rethrows -> Value? {
        let deadline = ContinuousClock.now + duration
        var gap = interval ?? Self.firstInterval
        while true {
            if let value = try await produce() { return value }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: min(gap, max(.zero, deadline - ContinuousClock.now)))
            if interval == nil { gap = min(gap * 3 / 2, Self.widestInterval) }
        }
    }
}
