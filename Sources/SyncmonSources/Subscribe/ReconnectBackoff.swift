/// Capped exponential backoff with jitter for a source's reconnects.
///
/// The n-th consecutive failure waits `initial × 2ⁿ`, capped at `maximum`, then spread by
/// ±`jitter` (uniformly), so many daemons that lost the same engine do not come back in step.
/// With the defaults: 0.5 s, 1 s, 2 s, 4 s, 8 s, 16 s, 30 s, 30 s, … each ±20 %. A connection
/// that delivered data resets the schedule, so a source that drops now and then reconnects fast.
package struct ReconnectBackoff: Sendable, Equatable {
    /// The first delay, in seconds.
    package var initial: Double
    /// The cap on the delay before jitter, in seconds.
    package var maximum: Double
    /// The relative spread, 0 ≤ jitter < 1.
    package var jitter: Double
    /// Consecutive failures since the last reset.
    package private(set) var failures = 0

    package static let standard = ReconnectBackoff(initial: 0.5, maximum: 30, jitter: 0.2)

    package init(initial: Double, maximum: Double, jitter: Double) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
        self.jitter = min(max(0, jitter), 0.99)
    }

    /// The delay before jitter after `failures` consecutive failures (0 → `initial`).
    package func baseDelay(afterFailures failures: Int) -> Double {
        // 2^63 overflows long before the cap matters; 62 doublings is past any sane cap.
        let doublings = min(max(0, failures), 62)
        return min(self.maximum, self.initial * Double(sign: .plus, exponent: doublings, significand: 1))
    }

    /// The delay to wait now (in seconds), counting one more failure.
    package mutating func nextDelay<Random: RandomNumberGenerator>(using random: inout Random) -> Double {
        let base = self.baseDelay(afterFailures: self.failures)
        self.failures += 1
        guard self.jitter > 0, base > 0 else { return base }
        return base * Double.random(in: (1 - self.jitter)...(1 + self.jitter), using: &random)
    }

    /// The delay to wait now, with the system's random numbers.
    package mutating func nextDelay() -> Double {
        var random = SystemRandomNumberGenerator()
        return self.nextDelay(using: &random)
    }

    /// A connection delivered data: the next failure starts from `initial` again.
    package mutating func reset() {
        self.failures = 0
    }
}
