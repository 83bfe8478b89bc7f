/// One notification route's decisions (docs/notifications.md), pure: summaries and times in,
/// notifications owed out. The owner feeds it every covered pair's summary (`observe`), moves
/// it on at the times it asks for (`advance`, `nextWake`), hands what is due to a target
/// (`startDeliveries`) and reports back (`delivered`, `failed`). It persists `state` before
/// each delivery, so a restart sends what was owed and nothing that was sent.
public struct NotificationRoute: Sendable {
    public let policy: NotificationPolicy
    /// Everything that must survive a restart.
    public private(set) var state: NotificationRouteState
    /// Notifications handed to a target and not yet reported back: not persisted, so a crash
    /// mid-delivery delivers them again after the restart.
    private var inFlight: Set<UInt64> = []

    public init(policy: NotificationPolicy, state: NotificationRouteState = NotificationRouteState()) {
        self.policy = policy
        self.state = state
    }

    /// The pair's summary is `summary` at `now` (called on every change, and once per pair
    /// after a restart: an unchanged summary changes nothing). `previous`, the summary it had
    /// before, is asked for only when the pair enters `when`.
    public mutating func observe(_ pair: PairKey, summary: Summary, previous: @autoclosure () -> Summary? = nil, at now: Timestamp) {
        guard self.policy.covers(pair) else { return }
        let watched = self.policy.when.contains(summary)
        self.state.alerts[pair] = PairAlert.observed(self.state.alerts[pair], summary: summary, previous: previous, isWatched: watched, at: now)
    }

    /// `syncmon forget`: the pair resolves silently, and nothing owed for it is sent.
    public mutating func forget(_ pair: PairKey) {
        self.state.alerts[pair] = nil
        self.state.withdraw(pair, kinds: RouteNotification.Kind.allCases)
    }

    /// Moves the route to `now`: pairs held long enough fire or resolve, repeats fall due,
    /// groups close, and what the rate limit allows is released to be delivered.
    public mutating func advance(to now: Timestamp) {
        for (pair, alert) in self.state.alerts.sorted(by: { $0.key < $1.key }) {
            self.advance(pair, alert, to: now)
        }
        for kind in RouteNotification.Kind.allCases {
            if let gathering = self.state.gathering[kind], gathering.closesAt <= now {
                self.state.gathering[kind] = nil
                self.state.hold(gathering.pairs, kind: kind)
            }
        }
        self.state.released.removeAll { $0.adding(.seconds(Int64(3_600))) <= now }
        for kind in RouteNotification.Kind.allCases where !(self.state.held[kind] ?? []).isEmpty {
            guard self.state.released.count < self.policy.ratePerHour else { break }
            self.state.release(kind: kind, at: now)
        }
    }

    /// One pair's hold, repeat or resolution at `now`.
    private mutating func advance(_ pair: PairKey, _ alert: PairAlert, to now: Timestamp) {
        let hold = self.policy.hold
        switch alert {
        case .pending(let since, let summary, let previous) where since.adding(hold) <= now:
            self.state.alerts[pair] = .firing(since: since, summary: summary, previous: previous, notified: now)
            self.gather(NotifiedPair(pair: pair, summary: summary, previous: previous, since: since), kind: .firing, at: now)
        case .firing(let since, let summary, let previous, let notified):
            guard let interval = self.policy.repeatInterval, notified.adding(interval) <= now else { return }
            self.state.alerts[pair] = .firing(since: since, summary: summary, previous: previous, notified: now)
            self.gather(NotifiedPair(pair: pair, summary: summary, previous: previous, since: since, isRepeat: true), kind: .firing, at: now)
        case .clearing(let since, let summary, _, let broken, _, let clearedAt) where clearedAt.adding(hold) <= now:
            self.state.alerts[pair] = nil
            // A firing nobody was told of is dropped, and so is its resolution.
            let undelivered = self.state.withdraw(pair, kinds: [.firing])
            if self.policy.sendsResolved, !undelivered {
                self.gather(NotifiedPair(pair: pair, summary: summary, previous: broken, since: since), kind: .resolved, at: now)
            }
        case .pending, .clearing:
            return
        }
    }

    /// Adds a decided pair to its kind's open group, opening one that closes after `group`.
    private mutating func gather(_ notified: NotifiedPair, kind: RouteNotification.Kind, at now: Timestamp) {
        var gathering = self.state.gathering[kind] ?? Gathering(closesAt: now.adding(self.policy.group), pairs: [])
        gathering.pairs.removeAll { $0.pair == notified.pair }
        gathering.pairs.append(notified)
        self.state.gathering[kind] = gathering
    }

    /// When the route next needs `advance` with nothing observed meanwhile: `nil` while
    /// nothing waits (a quiet route adds no wakeups).
    public func nextWake() -> Timestamp? {
        var wake: [Timestamp] = []
        for alert in self.state.alerts.values {
            switch alert {
            case .pending(let since, _, _): wake.append(since.adding(self.policy.hold))
            case .firing(_, _, _, let notified): self.policy.repeatInterval.map { wake.append(notified.adding($0)) }
            case .clearing(_, _, _, _, _, let clearedAt): wake.append(clearedAt.adding(self.policy.hold))
            }
        }
        wake.append(contentsOf: self.state.gathering.values.map(\.closesAt))
        if self.state.held.values.contains(where: { !$0.isEmpty }), let oldest = self.state.released.min() {
            wake.append(oldest.adding(.seconds(Int64(3_600))))
        }
        wake.append(contentsOf: self.state.owed.filter { !self.inFlight.contains($0.id) }.map(\.nextAttempt))
        return wake.min()
    }

    /// The owed notifications whose attempt is due at `now`, marked in flight.
    public mutating func startDeliveries(at now: Timestamp) -> [RouteNotification] {
        let due = self.state.owed.filter { $0.nextAttempt <= now && !self.inFlight.contains($0.id) }
        self.inFlight.formUnion(due.map(\.id))
        return due
    }

    /// The target took notification `id`: it is no longer owed.
    public mutating func delivered(_ id: UInt64) {
        self.inFlight.remove(id)
        self.state.owed.removeAll { $0.id == id }
        self.state.sent += 1
    }

    /// The target failed notification `id` at `now`: tried again after the backoff.
    public mutating func failed(_ id: UInt64, at now: Timestamp) {
        self.inFlight.remove(id)
        guard let index = self.state.owed.firstIndex(where: { $0.id == id }) else { return }
        self.state.owed[index].failures += 1
        self.state.owed[index].nextAttempt = now.adding(RouteNotification.backoff(afterFailures: self.state.owed[index].failures))
    }
}
