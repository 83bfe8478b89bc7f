/// The waits between looks for a user manager that does not run (docs/user-sessions.md): short
/// and growing to a few seconds, never a busy loop, so that its start (linger enabled, a login)
/// is seen within seconds. No jitter: one look is a `connect(2)` to a local socket.
package struct UserManagerRetry: Sendable, Equatable {
    package var initial: Double
    package var step: Double
    package var maximum: Double

    /// 1 s, then 2 s, then 3 s: a manager that starts is seen within 3 s.
    package static let standard = UserManagerRetry(initial: 1, step: 1, maximum: 3)

    package init(initial: Double, step: Double, maximum: Double) {
        self.initial = initial
        self.step = step
        self.maximum = maximum
    }

    /// The wait after the `failures`-th failed look in a row (1-based), in seconds.
    package func delay(after failures: Int) -> Double {
        min(self.maximum, self.initial + self.step * Double(max(0, failures - 1)))
    }
}
