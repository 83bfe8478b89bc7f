/// When a Syncthing source calls its engine down, and how long it waits before trying again
/// (docs/syncthing.md, "When Syncthing is unreachable"). A value with no I/O: the source tells
/// it what each try gave and does what it says.
struct SyncthingRetry: Sendable {
    /// What a failed try leads to.
    struct Decision: Equatable, Sendable {
        /// The engine is down: its pairs are `engine_down` until the API answers again.
        var engineLost: Bool
        /// Seconds to wait before the next try.
        var delay: Double
    }

    /// The retry after a first failure that may be a fluke (a reset connection).
    static let quickRetry = 0.2
    /// The schedule after that: 0.5 s, doubling, capped at 2 s (±20 %). Lower than other
    /// sources' 30 s: a stopped Syncthing refuses at once, a try costs nearly nothing, and a
    /// Syncthing that is back should be read again within a couple of seconds, not 14 s later.
    static let schedule = ReconnectBackoff(initial: 0.5, maximum: 2, jitter: 0.2)

    private var backoff = Self.schedule
    /// Failed tries since the API last answered.
    private(set) var failuresInARow = 0

    /// The API answered: the next failure starts the schedule over.
    mutating func answered() {
        self.failuresInARow = 0
        self.backoff.reset()
    }

    /// A try failed; `refused` when nothing listens at the address (`ECONNREFUSED`).
    ///
    /// A refused connection is final at once: Syncthing is not running there, and its pairs
    /// are `engine_down` from this try. Anything else (a reset, a timeout, an HTTP error) gets
    /// one quick retry first: a single reset connection is no reason to call the engine down.
    mutating func failed<Random: RandomNumberGenerator>(refused: Bool, using random: inout Random) -> Decision {
        self.failuresInARow += 1
        if self.failuresInARow == 1, !refused { return Decision(engineLost: false, delay: Self.quickRetry) }
        return Decision(engineLost: true, delay: self.backoff.nextDelay(using: &random))
    }

    /// `failed(refused:using:)` with the system's random numbers.
    mutating func failed(refused: Bool) -> Decision {
        var random = SystemRandomNumberGenerator()
        return self.failed(refused: refused, using: &random)
    }
}
