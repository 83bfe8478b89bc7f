/// A notification route's memory (docs/notifications.md): each pair's alert, the groups being
/// gathered, what the rate limit holds back, what is owed, and what was released in the last
/// hour. Saved in the state directory and restored as it was.
public struct NotificationRouteState: Equatable, Sendable {
    public internal(set) var alerts: [PairKey: PairAlert] = [:]
    /// Per kind, the pairs decided within the open group.
    var gathering: [RouteNotification.Kind: Gathering] = [:]
    /// Per kind, pairs whose group closed while the rate limit was spent: folded into the next.
    var held: [RouteNotification.Kind: [NotifiedPair]] = [:]
    /// Released and not yet delivered, oldest first.
    public internal(set) var owed: [RouteNotification] = []
    /// When notifications were released within the last hour, for the rate limit.
    var released: [Timestamp] = []
    var nextID: UInt64 = 1
    /// Notifications delivered, and pairs dropped (a firing that resolved before anyone was
    /// told, or a forgotten pair's), since the route began.
    public internal(set) var sent = 0
    public internal(set) var dropped = 0

    public init() {}

    /// Adds a closed group's pairs to what waits for the rate limit, a later decision about a
    /// pair replacing an earlier one.
    mutating func hold(_ pairs: [NotifiedPair], kind: RouteNotification.Kind) {
        var held = self.held[kind] ?? []
        for notified in pairs {
            held.removeAll { $0.pair == notified.pair }
            held.append(notified)
        }
        self.held[kind] = held
    }

    /// Everything held of `kind` as one notification, owed from `now`.
    mutating func release(kind: RouteNotification.Kind, at now: Timestamp) {
        let pairs = (self.held[kind] ?? []).sorted { $0.pair < $1.pair }
        self.held[kind] = nil
        self.owed.append(RouteNotification(id: self.nextID, kind: kind, pairs: pairs, decidedAt: now, nextAttempt: now))
        self.nextID += 1
        self.released.append(now)
    }

    /// Takes `pair` out of everything not yet delivered of `kinds`; a notification left with no
    /// pair is no longer owed. Returns whether anything was taken (each counted as dropped).
    @discardableResult
    mutating func withdraw(_ pair: PairKey, kinds: [RouteNotification.Kind]) -> Bool {
        var found = 0
        for kind in kinds {
            found += self.gathering[kind]?.pairs.removeAll(counting: pair) ?? 0
            found += self.held[kind]?.removeAll(counting: pair) ?? 0
        }
        for index in self.owed.indices where kinds.contains(self.owed[index].kind) {
            found += self.owed[index].pairs.removeAll(counting: pair)
        }
        self.owed.removeAll { $0.pairs.isEmpty }
        self.dropped += found
        return found > 0
    }
}

/// Pairs decided within one open group, sent together when it closes.
struct Gathering: Equatable, Sendable {
    var closesAt: Timestamp
    var pairs: [NotifiedPair]
}

extension Array where Element == NotifiedPair {
    /// Removes `pair`'s entries; returns how many there were.
    fileprivate mutating func removeAll(counting pair: PairKey) -> Int {
        let before = self.count
        self.removeAll { $0.pair == pair }
        return before - self.count
    }
}
