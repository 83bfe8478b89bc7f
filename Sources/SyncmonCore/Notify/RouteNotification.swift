/// One notification a route decided to send (docs/notifications.md): the pairs it covers, what
/// happened to them, and its delivery so far. Owed until delivered; kept across restarts.
public struct RouteNotification: Equatable, Sendable {
    /// Whether the pairs fired or resolved (`SYNCMON_EVENT`).
    public enum Kind: String, CaseIterable, Sendable, Codable {
        case firing
        case resolved
    }

    /// Unique within its route, in the order decided.
    public var id: UInt64
    public var kind: Kind
    /// Every pair it covers, in pair order (`SYNCMON_PAIRS` is their count).
    public var pairs: [NotifiedPair]
    /// When the route released it to be delivered.
    public var decidedAt: Timestamp
    /// Failed deliveries so far.
    public var failures: Int
    /// When the next delivery may be tried.
    public var nextAttempt: Timestamp

    public init(id: UInt64, kind: Kind, pairs: [NotifiedPair], decidedAt: Timestamp, failures: Int = 0, nextAttempt: Timestamp) {
        self.id = id
        self.kind = kind
        self.pairs = pairs
        self.decidedAt = decidedAt
        self.failures = failures
        self.nextAttempt = nextAttempt
    }

    /// The wait after the `failures`-th failure: 10 s, doubling, at most an hour.
    public static func backoff(afterFailures failures: Int) -> TimeSpan {
        let doublings = min(max(failures - 1, 0), 9)
        return min(TimeSpan.seconds(Int64(10)).multiplied(by: Int64(1) << doublings), .seconds(Int64(3_600)))
    }
}

/// One pair in a notification.
public struct NotifiedPair: Equatable, Sendable {
    public var pair: PairKey
    /// Its summary when the notification was decided (for a resolution: the one it went back to).
    public var summary: Summary
    /// The summary before (`SYNCMON_PREVIOUS_SUMMARY`): for a firing, the one it had before it
    /// entered `when`; for a resolution, the last one it had in `when`. `nil` when unknown.
    public var previous: Summary?
    /// When it entered the route's `when` (for a resolution: how long it was broken started here).
    public var since: Timestamp
    /// A firing sent again after `repeat`, not a new one.
    public var isRepeat: Bool

    public init(pair: PairKey, summary: Summary, previous: Summary? = nil, since: Timestamp, isRepeat: Bool = false) {
        self.pair = pair
        self.summary = summary
        self.previous = previous
        self.since = since
        self.isRepeat = isRepeat
    }
}
