/// A route's memory as the state directory keeps it: pairs as `ENGINE/DATABASE`, summaries by
/// their status names, times as microseconds, so a file stays readable and survives a reordering
/// of `Summary`'s cases.
extension NotificationRouteState: Codable {
    private enum Key: String, CodingKey {
        case alerts, gathering, held, owed, released, nextID, sent, dropped
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init()
        for alert in try container.decode([PersistedAlert].self, forKey: .alerts) {
            self.alerts[try alert.pair.key()] = try alert.alert()
        }
        for gathering in try container.decode([PersistedGathering].self, forKey: .gathering) {
            let pairs = try gathering.pairs.map { try $0.notified() }
            self.gathering[gathering.kind] = Gathering(closesAt: gathering.closesAt ?? .distantPast, pairs: pairs)
        }
        for held in try container.decode([PersistedGathering].self, forKey: .held) {
            self.held[held.kind] = try held.pairs.map { try $0.notified() }
        }
        self.owed = try container.decode([PersistedNotification].self, forKey: .owed).map { try $0.notification() }
        self.released = try container.decode([Timestamp].self, forKey: .released)
        self.nextID = try container.decode(UInt64.self, forKey: .nextID)
        self.sent = try container.decode(Int.self, forKey: .sent)
        self.dropped = try container.decode(Int.self, forKey: .dropped)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        let alerts = self.alerts.sorted { $0.key < $1.key }.map { PersistedAlert($0.key, $0.value) }
        try container.encode(alerts, forKey: .alerts)
        let gathering = self.gathering.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            PersistedGathering(kind: $0.key, closesAt: $0.value.closesAt, pairs: $0.value.pairs.map(PersistedPair.init))
        }
        try container.encode(gathering, forKey: .gathering)
        let held = self.held.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            PersistedGathering(kind: $0.key, closesAt: nil, pairs: $0.value.map(PersistedPair.init))
        }
        try container.encode(held, forKey: .held)
        try container.encode(self.owed.map(PersistedNotification.init), forKey: .owed)
        try container.encode(self.released, forKey: .released)
        try container.encode(self.nextID, forKey: .nextID)
        try container.encode(self.sent, forKey: .sent)
        try container.encode(self.dropped, forKey: .dropped)
    }
}

/// A pair's name as text, read back into a key.
private struct PersistedName: Codable {
    var name: String

    init(_ pair: PairKey) { self.name = pair.description }

    init(from decoder: any Decoder) throws { self.name = try decoder.singleValueContainer().decode(String.self) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.name)
    }

    func key() throws -> PairKey {
        let parts = self.name.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let engine = EngineName.parse(parts[0]), let database = Database(parts[1]) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not ENGINE/DATABASE: \(self.name)"))
        }
        return PairKey(engine: engine, database: database)
    }
}

/// A summary by its status name.
private func persistedSummary(named name: String) throws -> Summary {
    guard let summary = Summary(name) else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown summary \(name)"))
    }
    return summary
}

/// A summary kept before the previous summaries were: a missing or unknown name reads as
/// unknown (`nil`), so a file written by an older version still loads whole.
private func persistedSummary(optional name: String?) -> Summary? {
    name.flatMap { Summary($0) }
}

/// One `PairAlert`, flat. `previous` and `broken` are absent from files written before they
/// were kept.
private struct PersistedAlert: Codable {
    var pair: PersistedName
    var state: String
    var summary: String
    var previous: String?
    var broken: String?
    var since: Timestamp
    var notified: Timestamp?
    var clearedAt: Timestamp?

    init(_ pair: PairKey, _ alert: PairAlert) {
        self.pair = PersistedName(pair)
        self.summary = alert.summary.description
        self.previous = alert.previous?.description
        self.since = alert.since
        switch alert {
        case .pending: self.state = "pending"
        case .firing(_, _, _, let notified):
            self.state = "firing"
            self.notified = notified
        case .clearing(_, _, _, let broken, let notified, let clearedAt):
            self.state = "clearing"
            self.broken = broken?.description
            self.notified = notified
            self.clearedAt = clearedAt
        }
    }

    func alert() throws -> PairAlert {
        let summary = try persistedSummary(named: self.summary)
        let previous = persistedSummary(optional: self.previous)
        switch (self.state, self.notified, self.clearedAt) {
        case ("pending", _, _): return .pending(since: self.since, summary: summary, previous: previous)
        case ("firing", .some(let notified), _): return .firing(since: self.since, summary: summary, previous: previous, notified: notified)
        case ("clearing", .some(let notified), .some(let clearedAt)):
            return .clearing(
                since: self.since, summary: summary, previous: previous, broken: persistedSummary(optional: self.broken), notified: notified,
                clearedAt: clearedAt)
        default: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad alert state \(self.state)"))
        }
    }
}

/// One `NotifiedPair`, flat; `previous` is absent from files written before it was kept.
private struct PersistedPair: Codable {
    var pair: PersistedName
    var summary: String
    var previous: String?
    var since: Timestamp
    var isRepeat: Bool

    init(_ notified: NotifiedPair) {
        self.pair = PersistedName(notified.pair)
        self.summary = notified.summary.description
        self.previous = notified.previous?.description
        self.since = notified.since
        self.isRepeat = notified.isRepeat
    }

    func notified() throws -> NotifiedPair {
        NotifiedPair(
            pair: try self.pair.key(), summary: try persistedSummary(named: self.summary), previous: persistedSummary(optional: self.previous),
            since: self.since, isRepeat: self.isRepeat)
    }
}

/// A group being gathered (with `closesAt`) or held back by the rate limit (without).
private struct PersistedGathering: Codable {
    var kind: RouteNotification.Kind
    var closesAt: Timestamp?
    var pairs: [PersistedPair]
}

/// One owed `RouteNotification`.
private struct PersistedNotification: Codable {
    var id: UInt64
    var kind: RouteNotification.Kind
    var pairs: [PersistedPair]
    var decidedAt: Timestamp
    var failures: Int
    var nextAttempt: Timestamp

    init(_ notification: RouteNotification) {
        self.id = notification.id
        self.kind = notification.kind
        self.pairs = notification.pairs.map(PersistedPair.init)
        self.decidedAt = notification.decidedAt
        self.failures = notification.failures
        self.nextAttempt = notification.nextAttempt
    }

    func notification() throws -> RouteNotification {
        RouteNotification(
            id: self.id, kind: self.kind, pairs: try self.pairs.map { try $0.notified() }, decidedAt: self.decidedAt, failures: self.failures,
            nextAttempt: self.nextAttempt
        )
    }
}
