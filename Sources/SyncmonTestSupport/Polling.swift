import Foundation

/// Waits for conditions instead of sleeping blindly: each helper polls until the condition
/// holds or a deadline passes, so a fast machine finishes fast and a slow one still passes.
public enum Polling {
    /// Polls `condition` every `interval` until it is true (returns `true`) or `timeout` passes
    /// (returns `false`).
    public static func until(
        timeout: Duration = .seconds(10),
        interval: Duration = .milliseconds(25),
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if try await condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: interval)
        }
    }

    /// Polls `produce` until it returns a value (returned) or `timeout` passes (`nil`).
    public static func value<Value>(
        timeout: Duration = .seconds(10),
        interval: Duration = .milliseconds(25),
        _ produce: () async throws -> Value?
    ) async rethrows -> Value? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await produce() { return value }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: interval)
        }
    }
}
