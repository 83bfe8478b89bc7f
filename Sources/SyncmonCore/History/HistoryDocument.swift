/// The pairs' history as `GET /api/v1/history` serves it and `syncmon status --history` reads
/// it back (docs/protocol.md, "History JSON"): the daemon's time and, per pair, its changes of
/// health, oldest first. One type for the writer and the reader, like ``StatusDocument``.
public struct HistoryDocument: Sendable, Equatable {
    /// One pair and its changes.
    public struct Pair: Sendable, Equatable {
        public var key: PairKey
        /// Oldest first.
        public var changes: [HealthChange]

        public init(key: PairKey, changes: [HealthChange]) {
            self.key = key
            self.changes = changes
        }
    }

    public var now: Timestamp
    /// By engine, then database.
    public var pairs: [Pair]

    public init(now: Timestamp, pairs: [Pair]) {
        self.now = now
        self.pairs = pairs
    }

    /// Every change of every pair in one timeline, oldest first (a pair's own order kept for
    /// changes at the same moment): what the terminal prints, newest last.
    public var timeline: [(key: PairKey, change: HealthChange)] {
        let all = self.pairs.flatMap { pair in pair.changes.map { (key: pair.key, change: $0) } }
        return all.enumerated().sorted { ($0.element.change.time, $0.offset) < ($1.element.change.time, $1.offset) }.map(\.element)
    }
}

extension Monitor {
    /// The history document at `now`: every tracked pair (only `engine`'s, only `database` of
    /// it, when given) with its changes kept at `now` from `since` on. A pair with no change
    /// in that time is listed with none: it is tracked and its health did not change.
    public func history(at now: Timestamp, engine: InlineName? = nil, database: Database? = nil, since: Timestamp? = nil) -> HistoryDocument {
        let keys = self.pairs.keys.filter { key in
            (engine.map { key.engine == $0 } ?? true) && (database.map { key.database == $0 } ?? true)
        }
        let pairs = keys.sorted().map { key in
            HistoryDocument.Pair(key: key, changes: self.history(of: key)?.changes(since: since, at: now) ?? [])
        }
        return HistoryDocument(now: now, pairs: pairs)
    }
}
