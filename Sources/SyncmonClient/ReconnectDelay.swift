import SyncmonCore

/// Capped exponential backoff with jitter between connection attempts.
///
/// The n-th consecutive failure waits a uniformly random time between half and all of
/// `minimum × 2ⁿ`, capped at `maximum` ("equal jitter"), so that the clients of a daemon that
/// restarted do not all come back in the same instant. A connection that lasted resets it.
package struct ReconnectDelay: Sendable {
    /// The first delay before jitter.
    let minimum: Duration
    /// The cap before jitter.
    let maximum: Duration
    /// Consecutive failures since the last reset.
    private(set) var failures = 0

    package init(minimum: Duration, maximum: Duration) {
        self.minimum = max(minimum, .zero)
        self.maximum = max(maximum, self.minimum)
    }

    /// The delay before jitter after `failures` consecutive failures.
    func ceiling(afterFailures failures: Int) -> Duration {
        let doublings = min(max(0, failures), 40)
        let seconds = EventLineRenderer.seconds(self.minimum) * Double(sign: .plus, exponent: doublings, significand: 1)
        return min(self.maximum, .seconds(seconds))
    }

    /// The delay to wait now, counting one more failure.
    package mutating func next<Random: RandomNumberGenerator>(using random: inout Random) -> Duration {
        let ceiling = EventLineRenderer.seconds(self.ceiling(afterFailures: self.failures))
        self.failures += 1
        guard ceiling > 0 else { return .zero }
        return .seconds(ceiling * Double.random(in: 0.5...1.0, using: &random))
    }

    /// The delay to wait now, with the system's random numbers.
    package mutating func next() -> Duration {
        var random = SystemRandomNumberGenerator()
        return self.next(using: &random)
    }

    package mutating func reset() {
        self.failures = 0
    }
}
