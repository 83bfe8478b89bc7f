import Foundation

/// Waits for conditions instead of sleeping blindly: each helper looks at a condition every
/// `interval` until it is settled or a deadline passes, so a fast machine finishes fast and a slow
/// one still passes. The only place the tests wait for time (real processes and real files
/// change on their own clock; everything in the daemon that can take a clock takes a manual one).
public enum Polling {
    /// Polls `condition` every `interval` until it is true (returns `true`) or `timeout` passes
    /// (returns `false`).
    public static func until(
        timeout: Duration = .seconds(10),
        interval: Duration = .milliseconds(25),
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        try await self.look(for: timeout, every: interval) { try await condition() ? true : nil } ?? false
    }

    /// Polls `produce` until it returns a value (returned) or `timeout` passes (`nil`).
    public static func value<Value>(
        timeout: Duration = .seconds(10),
        interval: Duration = .milliseconds(25),
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

    /// Calls `produce` every `interval` until it gives a value or `duration` has passed; it is
    /// called at least once, and once more at the deadline.
    private static func look<Value>(
        for duration: Duration,
        every interval: Duration,
        _ produce: () async throws -> Value?
    ) async rethrows -> Value? {
        let deadline = ContinuousClock.now + duration
        while true {
            if let value = try await produce() { return value }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: min(interval, max(.zero, deadline - ContinuousClock.now)))
        }
    }
}
