/// All tracked pairs, and the rules that sit above a single pair: the pair limit, duplicate
/// suppression by `seq`, connection ties, and the bookkeeping of accepted and rejected lines.
///
/// The daemon owns one `Monitor` and feeds it decoded lines; `syncmon replay` does the same
/// offline. Decisions come back as values (`ApplyOutcome`, `StatusChange`); the owner performs
/// the effects (metrics, logs, notifications).
public struct Monitor: Sendable {
    public var configuration: MonitorConfiguration {
        // New thresholds change every verdict's deadlines: look at every pair again.
        didSet {
            for index in self.pairs.indices { self.pairs.values[index].verdictHoldsUntil = .distantPast }
            self.nextLook = .distantPast
        }
    }
    /// The earliest time a pair's verdict can change with no event arriving: a threshold
    /// crossed, a heartbeat missed, a throttle ending. The owner calls ``changes(at:)`` then
    /// (and not before: nothing can have changed). It is a lower bound, never late: events push
    /// a pair's deadline back without raising this, and ``changes(at:)`` makes it exact again.
    /// `distantPast` when a pair changed in a way that needs a look now; `distantFuture` when
    /// no verdict waits on time at all.
    public private(set) var nextLook = Timestamp.distantPast
    /// The pairs by key.
    public private(set) var pairs = PairTable()
    /// Each pair's changes of health (docs/operations.md#history), recorded where the changes
    /// are reported (``changes(at:)`` and the looks of ``apply(_:at:connection:peer:now:changes:)``),
    /// kept in ``pairs`` beside the states; here the pairs that have any, by key (built on each
    /// call: for a whole document, not for one pair's, which is ``history(of:)``).
    public var histories: [PairKey: PairHistory] {
        var histories: [PairKey: PairHistory] = [:]
        for index in self.pairs.indices where !self.pairs.histories[index].isEmpty {
            histories[self.pairs.keys[index]] = self.pairs.histories[index]
        }
        return histories
    }

    /// `key`'s changes of health; `nil` when it has none or is not tracked.
    public func history(of key: PairKey) -> PairHistory? {
        guard let index = self.pairs.index(forKey: key), !self.pairs.histories[index].isEmpty else { return nil }
        return self.pairs.histories[index]
    }
    /// Rejected lines by reason (`RejectionReason.rawValue`).
    public private(set) var rejected = [UInt64](repeating: 0, count: RejectionReason.allCases.count)
    /// Events dropped as duplicates after a resume (not rejections, docs/protocol.md#rejections).
    public private(set) var duplicates: UInt64 = 0
    /// Events applied.
    public private(set) var accepted: UInt64 = 0
    /// The host's own view of its network (docs/operations.md, "Host network view"), which pairs
    /// whose engine never reported `networkStatus` take. `unknown` while the daemon does not
    /// follow the host, and always in replay.
    public private(set) var hostNetwork: NetworkStatus = .unknown

    public init(configuration: MonitorConfiguration = MonitorConfiguration()) {
        self.configuration = configuration
    }

    /// What happened to one event.
    public enum ApplyOutcome: Equatable, Sendable {
        case applied
        /// Its `seq` was not above the pair's last accepted one: dropped silently.
        case duplicate
        case rejected(Rejection)
        /// A `forget` removed this many pairs (none when the engine or pair was not tracked).
        case forgotten(Int)
    }

    /// Whether `peer` may report for the event's engine: always when the engine has no
    /// policy, or when the event did not come from a push connection (`peer` is `nil`:
    /// subscribe sources are trusted as configured, replay reads a file).
    @inline(__always)
    func isAllowed(_ event: Event, from peer: PeerCredentials?) -> Bool {
        guard let peer, !self.configuration.peerPolicies.isEmpty, let policy = self.configuration.peerPolicies[event.engine] else { return true }
        return policy.allows(peer)
    }

    /// Applies an event at `time`: the one way an event reaches the pairs, for replay, the
    /// daemon's ingest and the tests alike. The peer policy is checked, a `forget` carried out,
    /// a duplicate `seq` dropped, a new pair created within the pair limit. `connection`
    /// identifies the push connection that carried the event, `peer` who wrote on it.
    ///
    /// With `now`, the pair is looked at just before the event as well as after it, and what
    /// the event did to its verdict is appended to `changes`, so that a verdict that held only
    /// for a moment is still reported: a stall that fired since the last tick and that this
    /// event clears, or a failure that a later event of the same batch ends. Both looks judge
    /// the pair at the event's time when it came late (``PairTable/lookTime(ofPairAt:eventAt:receivedAt:)``),
    /// never after `now`; the history takes a change at `now`. Without `now`
    /// the pair is only marked due a look (replay evaluates at the end, a batch applied as one
    /// state after the batch).
    ///
    /// `inout` only so that the event is handed on in place: read out of a buffer by value,
    /// Swift copies it and retains what its payload holds, because it cannot tell that applying
    /// does not write to the buffer, and an exclusive `inout` tells it. The event is not
    /// changed. Not inlined, so that the caller's buffer access stays behind this boundary.
    @inline(never)
    @discardableResult
    public mutating func apply(
        stored event: inout Event,
        at time: Timestamp,
        connection: UInt64? = nil,
        peer: PeerCredentials? = nil,
        lookingAt now: Timestamp? = nil,
        changes: inout [StatusChange]
    ) -> ApplyOutcome {
        guard self.isAllowed(event, from: peer) else {
            let rejection = Rejection(.forbidden, field: "engine")
            self.count(rejection)
            return .rejected(rejection)
        }
        // The type first: reading the scope matches the payload, which copies it (200 bytes,
        // twice), and the compiler made that copy for every event when the check came first.
        if event.type == .forget { return .forgotten(self.forget(scopeOf: &event)) }
        let key = event.pair
        var index = self.pairs.index(forKey: key)
        // When the looks judge the pair: now, or the time a late event states.
        var judged: Timestamp? = nil
        if let existing = index {
            // One lookup for the look before, the event and the look after: nothing is inserted.
            // Mutated in place through the index: reading the state out first would copy it.
            if let now {
                let judging = self.pairs.lookTime(ofPairAt: existing, eventAt: time, receivedAt: now)
                judged = judging
                self.changes(ofPairAt: existing, key: key, at: now, judgedAt: judging, onlyIfDue: true, into: &changes)
            }
            guard self.pairs.values[existing].applyIfNew(&event, at: time, connection: connection) else {
                self.duplicates += 1
                return .duplicate
            }
        } else {
            guard self.pairs.count < self.configuration.maximumPairs else {
                let rejection = Rejection(.engineLimit, field: "engine")
                self.count(rejection)
                return .rejected(rejection)
            }
            // A pair first seen while the host is offline starts out suppressed, and gets the
            // full thresholds once the host is back.
            var state = PairState(firstEvent: time, hostNetwork: self.hostNetwork)
            state.apply(stored: &event, at: time, connection: connection)
            self.pairs[key] = state
            self.nextLook = .distantPast
            index = now == nil ? nil : self.pairs.index(forKey: key)
            if let now, let index { judged = self.pairs.lookTime(ofPairAt: index, eventAt: time, receivedAt: now) }
        }
        self.accepted += 1
        guard let now, let judged, let index else {
            // Not looked at here: the pair's verdict is due a look.
            self.nextLook = .distantPast
            return .applied
        }
        self.changes(ofPairAt: index, key: key, at: now, judgedAt: judged, onlyIfDue: false, into: &changes)
        return .applied
    }

    /// ``apply(stored:at:connection:peer:lookingAt:changes:)`` for an event held by value,
    /// not looked at: a convenience for tests and set-up, which do not apply from a buffer.
    @discardableResult
    public mutating func apply(_ event: Event, at time: Timestamp, connection: UInt64? = nil) -> ApplyOutcome {
        var event = event
        var changes: [StatusChange] = []
        return self.apply(stored: &event, at: time, connection: connection, changes: &changes)
    }

    /// ``apply(stored:at:connection:peer:lookingAt:changes:)`` for an event held by value,
    /// looked at `now`.
    @discardableResult
    public mutating func apply(
        _ event: Event,
        at time: Timestamp,
        connection: UInt64?,
        peer: PeerCredentials? = nil,
        now: Timestamp,
        changes: inout [StatusChange]
    ) -> ApplyOutcome {
        var event = event
        return self.apply(stored: &event, at: time, connection: connection, peer: peer, lookingAt: now, changes: &changes)
    }

    /// Counts a line the decoder rejected.
    public mutating func count(_ rejection: Rejection) {
        self.rejected[rejection.reason.rawValue] += 1
    }

    /// Counts lines the decoder rejected, by reason (`RejectionReason.rawValue`).
    public mutating func count(_ rejected: [UInt64]) {
        for reason in rejected.indices { self.rejected[reason] += rejected[reason] }
    }

    /// Takes in another monitor's pairs and counts (a parallel replay's shards, whose pairs
    /// are disjoint); this monitor's configuration stays.
    public mutating func merge(_ other: Monitor) {
        self.pairs.merge(other.pairs)
        self.count(other.rejected)
        self.duplicates += other.duplicates
        self.accepted += other.accepted
        self.nextLook = .distantPast
    }

    /// Rejected lines for one reason.
    public func rejectedCount(_ reason: RejectionReason) -> UInt64 {
        self.rejected[reason.rawValue]
    }

    /// A push connection closed: engines tied to it without `engineStopped` are down until
    /// they are heard from again (docs/protocol.md#account-and-network).
    public mutating func connectionClosed(_ connection: UInt64) {
        for index in self.pairs.indices where self.pairs.values[index].liveness.connection == connection {
            self.pairs.values[index].connectionClosed()
            self.nextLook = .distantPast
        }
    }

    /// An adapter's source lost its engine (a Syncthing whose API refuses): the pairs tied to
    /// the source's `connection` are down, as by ``connectionClosed(_:)``, and so are the
    /// engine's pairs restored from the daemon's previous run and not heard from since, which
    /// no connection of this run ties (docs/syncthing.md#when-syncthing-is-unreachable): they would otherwise wait
    /// out their restart grace.
    public mutating func sourceLost(_ engine: InlineName, connection: UInt64) {
        self.connectionClosed(connection)
        for index in self.pairs.indices where self.pairs.keys[index].engine == engine {
            guard case .restored = self.pairs.values[index].liveness else { continue }
            self.pairs.values[index].engineUnreachable()
            self.nextLook = .distantPast
        }
    }

    /// A push connection closed after at most one line: a one-shot sender's (`syncmon emit`),
    /// which ties no engine (docs/protocol.md#liveness). An engine it started stays up, untied,
    /// so that neither its closing nor a daemon restart makes it `engine_down`. Returns whether
    /// any pair was tied to it (the state to save changed; no verdict did).
    public mutating func connectionReleased(_ connection: UInt64) -> Bool {
        var released = false
        for index in self.pairs.indices where self.pairs.values[index].liveness.connection == connection {
            released = self.pairs.values[index].connectionReleased() || released
        }
        return released
    }

    /// Puts back a pair restored from state saved at `savedAt`, with its `history`, as the
    /// daemon starts at `start`, unless the pair is already tracked (docs/protocol.md#liveness).
    ///
    /// Stopped and down stay so; a heartbeat promise or a tie to the previous run's push
    /// connection gets its grace from `start`. The daemon could see nothing while it was not
    /// running, so its start ends a suppression: every stall clock gives the full threshold
    /// from `start`. The restart adds no change to the history: the pair's last reported
    /// verdict comes back with it, so only a verdict that really differs now is a change.
    public mutating func restore(
        _ key: PairKey, _ state: PairState, history: PairHistory = PairHistory(), savedAt: Timestamp, start: Timestamp
    ) {
        guard self.pairs[key] == nil, self.pairs.count < self.configuration.maximumPairs else { return }
        var state = state
        state.liveness = state.liveness.restarted(at: start, savedAt: savedAt, lastEvent: state.lastEvent)
        state.suppressionEnded = max(state.suppressionEnded ?? start, start)
        // The host view is not persisted: the pair takes the current one, which is not news to it.
        state.hostNetwork = self.hostNetwork
        state.verdictHoldsUntil = .distantPast
        self.pairs[key] = state
        if let index = self.pairs.index(forKey: key) { self.pairs.histories[index] = history.trimmed(at: start) }
        self.nextLook = .distantPast
    }

    /// The host's view of its network changed at `now`: every pair whose engine never reported
    /// its network takes it (docs/protocol.md, "Account and network"). Returns what that did to
    /// their verdicts, like an event would: each pair is looked at just before the change as
    /// well, so a stall that fell due since the last tick is reported before the host going
    /// offline suppresses it.
    public mutating func setHostNetwork(_ status: NetworkStatus, at now: Timestamp) -> [StatusChange] {
        guard status != self.hostNetwork else { return [] }
        self.hostNetwork = status
        var changes: [StatusChange] = []
        for index in self.pairs.indices {
            let key = self.pairs.keys[index]
            let takesHostView = self.pairs.values[index].engineNetwork == .unknown
            if takesHostView { self.changes(ofPairAt: index, key: key, at: now, judgedAt: now, onlyIfDue: true, into: &changes) }
            self.pairs.values[index].setHostNetwork(status, at: now)
            if takesHostView { self.changes(ofPairAt: index, key: key, at: now, judgedAt: now, onlyIfDue: false, into: &changes) }
        }
        return changes.sorted { $0.key < $1.key }
    }

    /// Forgets a pair (an operator clearing an engine that is gone for good), its history too.
    public mutating func remove(_ key: PairKey) {
        self.pairs[key] = nil
    }

    /// Forgets `key`, or with `allDatabases` every pair of its engine (`syncmon forget`,
    /// docs/operations.md#forgetting-an-engine); returns how many pairs were removed. A pair
    /// forgotten comes back, new, when its engine speaks again.
    public mutating func forget(_ key: PairKey, allDatabases: Bool) -> Int {
        let keys = allDatabases ? self.pairs.keys.filter { $0.engine == key.engine } : (self.pairs[key] == nil ? [] : [key])
        for key in keys { self.remove(key) }
        return keys.count
    }

    /// Carries out a `forget` event: its pair, or every pair of its engine when it names no
    /// database. Apart from ``apply(stored:at:connection:peer:lookingAt:changes:)`` so that
    /// only a `forget` reads its payload.
    @inline(never)
    private mutating func forget(scopeOf event: inout Event) -> Int {
        self.forget(event.pair, allDatabases: event.forgetScope ?? false)
    }

    /// The verdict on one pair at `now`.
    public func evaluate(_ key: PairKey, at now: Timestamp) -> Evaluation? {
        self.pairs[key].map { $0.evaluate(at: now, thresholds: self.configuration.thresholds(for: key.engine)) }
    }

    /// Status rows at `now`, ordered by engine then database; only `engine`'s when given.
    public func rows(at now: Timestamp, engine: InlineName? = nil) -> [StatusRow] {
        self.pairs.compactMap { key, state -> StatusRow? in
            if let engine, key.engine != engine { return nil }
            return StatusRow(key: key, state: state, at: now, thresholds: self.configuration.thresholds(for: key.engine))
        }.sorted { $0.key < $1.key }
    }

    /// Each pair's summary at `now`, unordered: all the systemd status line needs, without
    /// building and sorting whole status rows.
    public func summaries(at now: Timestamp) -> [(key: PairKey, summary: Summary)] {
        self.pairs.indices.map { index in
            let key = self.pairs.keys[index]
            return (key, self.pairs.values[index].evaluate(at: now, thresholds: self.configuration.thresholds(for: key.engine)).summary)
        }
    }

    /// Compares each pair's verdict at `now` with the one last reported and returns the
    /// changes, remembering the new verdicts: the daemon logs each change once.
    ///
    /// Before ``nextLook`` nothing can have changed and no pair is looked at; otherwise every
    /// pair is, and ``nextLook`` becomes exact: the earliest deadline left.
    public mutating func changes(at now: Timestamp) -> [StatusChange] {
        guard now >= self.nextLook else { return [] }
        var changes: [StatusChange] = []
        var earliest = Timestamp.distantFuture
        for index in self.pairs.indices {
            let holdsUntil = self.changes(ofPairAt: index, key: self.pairs.keys[index], at: now, judgedAt: now, onlyIfDue: true, into: &changes)
            earliest = min(earliest, holdsUntil)
        }
        self.nextLook = earliest
        return changes.sorted { $0.key < $1.key }
    }

    /// The changes of one pair, remembering its new verdict.
    public mutating func changes(of key: PairKey, at now: Timestamp) -> [StatusChange] {
        var changes: [StatusChange] = []
        if let index = self.pairs.index(forKey: key) { self.changes(ofPairAt: index, key: key, at: now, judgedAt: now, onlyIfDue: true, into: &changes) }
        return changes
    }

    /// How far before `now` an event is judged for it to be late; and how long after a late
    /// event the pair waits for its next look at the daemon's time: a backlog written in many
    /// pieces (a client's queue goes out 256 events a write) is read in many pieces, and a
    /// look at `now` between two of them would judge the start of a cycle whose end is still
    /// on its way.
    public static let lateLookDelay = TimeSpan.seconds(Int64(1))

    /// Appends a pair's changes since its last reported verdict: the first verdict, each
    /// stall raised or cleared, and each change of health. Summary moves that keep the health
    /// (a healthy engine going `in_progress` ↔ `succeeded` with every cycle) are appended only
    /// when `configuration.reportsCycles` asks for them. Each change of health (the first
    /// verdict included) goes into the pair's history here, the one place that decides it.
    /// The pair is judged at `judged`: `now`, or before it for a late event
    /// (``PairTable/lookTime(ofPairAt:eventAt:receivedAt:)``); a change of health goes into
    /// the history at `now`, when the daemon saw it.
    /// Returns until when the pair's verdict holds.
    @discardableResult
    private mutating func changes(
        ofPairAt index: Int,
        key: PairKey,
        at now: Timestamp,
        judgedAt judged: Timestamp,
        onlyIfDue: Bool,
        into changes: inout [StatusChange]
    ) -> Timestamp {
        // A late event's looks are always taken: the pair's deadline is then the daemon's time
        // of its next look (`lateLookDelay`), not a time its stated times can be held against.
        let late = judged < now
        let onlyIfDue = onlyIfDue && !late
        // A pair not due a look (the look before every event, mostly) holds its verdict: its
        // deadline is all there is to read, without the thresholds' lookup and the look.
        if onlyIfDue {
            let deadline = self.pairs.values[index].currentDeadline()
            if now < deadline {
                self.nextLook = min(self.nextLook, deadline)
                return deadline
            }
        }
        // In place through one mutating call: reading anything off the pair (even one field
        // through `values[index]`) would copy it, and retain all of its storage, every event.
        let thresholds = self.configuration.thresholds(for: key.engine)
        let notBefore = late ? now.adding(Self.lateLookDelay) : .distantPast
        let look = self.pairs.values[index].look(at: judged, thresholds: thresholds, onlyIfDue: onlyIfDue, notBefore: notBefore)
        self.nextLook = min(self.nextLook, look.holdsUntil)
        guard let (previous, evaluation) = look.change else { return look.holdsUntil }
        let failedPhase = look.failedPhase
        func change(_ kind: StatusChange.Kind) -> StatusChange {
            StatusChange(key: key, kind: kind, evaluation: evaluation, failedPhase: failedPhase)
        }
        if let previous, previous.stalls != evaluation.stalls {
            for reason in StallReason.allCases {
                let was = previous.stalls.contains(reason)
                let isNow = evaluation.stalls.contains(reason)
                if isNow, !was { changes.append(change(.stallRaised(reason))) }
                if was, !isNow { changes.append(change(.stallCleared(reason))) }
            }
        } else if previous == nil {
            for reason in evaluation.stalls { changes.append(change(.stallRaised(reason))) }
        }
        guard previous?.summary != evaluation.summary else { return look.holdsUntil }
        let healthChanged = previous.map { !$0.summary.hasSameHealth(as: evaluation.summary) } ?? true
        if healthChanged {
            // Rare (a change of health), so reading the reason off the pair costs nothing that matters.
            let unknownReason = evaluation.summary == .unknown ? self.pairs.values[index].unknownBecause : nil
            let healthChange = HealthChange(
                time: now, from: previous?.summary, to: evaluation, failedPhase: failedPhase, unknownReason: unknownReason)
            self.pairs.histories[index].append(healthChange)
        }
        guard healthChanged || self.configuration.reportsCycles else { return look.holdsUntil }
        var summaryChange = change(.summaryChanged(from: previous?.summary))
        summaryChange.isHealthChange = healthChanged
        changes.append(summaryChange)
        return look.holdsUntil
    }
}

/// A change worth one log entry: a summary moved, or a stall was raised or cleared (docs/operations.md#logs-and-journald).
public struct StatusChange: Sendable {
    /// What changed.
    public enum Kind: Equatable, Sendable {
        /// `from` is `nil` for a pair's first verdict.
        case summaryChanged(from: Summary?)
        case stallRaised(StallReason)
        case stallCleared(StallReason)
    }

    public var key: PairKey
    public var kind: Kind
    /// The pair's verdict after the change.
    public var evaluation: Evaluation
    /// The failing phase and its error, when the pair has an outstanding failure.
    public var failedPhase: (phase: Phase, error: PhaseError)?
    /// `false` for a summary move inside one health state (`in_progress` → `succeeded`):
    /// such changes are only produced when cycles are reported, and are logged at debug.
    public var isHealthChange = true

    init(key: PairKey, kind: Kind, evaluation: Evaluation, failedPhase: (phase: Phase, error: PhaseError)?) {
        self.key = key
        self.kind = kind
        self.evaluation = evaluation
        self.failedPhase = failedPhase
    }
}

extension Monitor {
    /// Takes a canary's status at `now` (docs/canary.md). The pair is created if no engine
    /// has reported on it yet, so a pair watched by its canary alone exists from the start;
    /// `false` when it could not be (the pair limit).
    @discardableResult
    public mutating func setCanary(_ key: PairKey, _ status: CanaryStatus, at now: Timestamp) -> Bool {
        if let index = self.pairs.index(forKey: key) {
            self.pairs.values[index].setCanary(status)
            self.nextLook = min(self.nextLook, self.pairs.values[index].currentDeadline())
            return true
        }
        guard self.pairs.count < self.configuration.maximumPairs else { return false }
        var state = PairState(canaryFrom: now, hostNetwork: self.hostNetwork)
        state.setCanary(status)
        self.pairs[key] = state
        self.nextLook = .distantPast
        return true
    }

    /// The pair's source cannot (`reason`) or again can (`nil`) see its engine, at `now`
    /// (docs/systemd-units.md: a `unit:` source's unit that systemd does not know). The pair is created
    /// when absent, so a missing unit shows as an `unknown` pair; `false` when it could not be
    /// (the pair limit).
    @discardableResult
    public mutating func setUnknown(_ key: PairKey, because reason: String?, at now: Timestamp) -> Bool {
        if let index = self.pairs.index(forKey: key) {
            self.pairs.values[index].setUnknown(because: reason, at: now)
            self.nextLook = .distantPast
            return true
        }
        guard reason != nil, self.pairs.count < self.configuration.maximumPairs else { return reason == nil }
        var state = PairState(firstEvent: now, hostNetwork: self.hostNetwork)
        state.setUnknown(because: reason, at: now)
        self.pairs[key] = state
        self.nextLook = .distantPast
        return true
    }

    /// A canary's peer moved (`import`) or acknowledged (`export`) at `time`: a completed cycle
    /// for a pair no engine has reported on. Returns whether it counted.
    @discardableResult
    public mutating func canaryCycle(_ key: PairKey, _ phase: Phase, at time: Timestamp) -> Bool {
        guard let index = self.pairs.index(forKey: key), self.pairs.values[index].canaryCycle(phase, at: time) else { return false }
        self.nextLook = .distantPast
        return true
    }
}
