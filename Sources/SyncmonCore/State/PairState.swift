/// Everything syncmon knows about one (engine, database) pair (docs/protocol.md#state-model).
///
/// A pure value: events are applied with their time passed in, and the verdict (summary and
/// stalls) is computed for a given "now" by `evaluate(at:thresholds:)`. Nothing here reads a
/// clock, so every rule is testable with plain values.
public struct PairState: Sendable {
    public private(set) var setup = PhaseTracker()
    public private(set) var importPhase = PhaseTracker()
    public private(set) var exportPhase = PhaseTracker()

    public private(set) var account: AccountStatus = .unknown
    /// The engine's own word on its network (`networkStatus`); `unknown` until it has said
    /// anything. Persisted: once an engine has spoken, its word wins for good.
    public private(set) var engineNetwork: NetworkStatus = .unknown
    /// The daemon's view of the host's network (docs/operations.md, "Host network view"), set
    /// by the `Monitor` for every pair; not persisted, and `unknown` in replay.
    public internal(set) var hostNetwork: NetworkStatus = .unknown
    /// `pendingRecordZoneChanges` from the latest `stateUpdate`.
    public private(set) var pendingRecordZoneChanges: Int64 = 0
    /// `pendingDatabaseChanges` from the latest `stateUpdate`.
    public private(set) var pendingDatabaseChanges: Int64 = 0

    /// Whether the engine runs: up (with its heartbeat promise and the push connection its
    /// `engineStarted` or `runStarted` came on), stopped, down, or restored after a daemon
    /// restart and waiting to be heard from.
    public internal(set) var liveness = Liveness.heardFrom

    public private(set) var firstEvent: Timestamp
    public private(set) var lastEvent: Timestamp
    /// The highest accepted `seq`.
    public private(set) var lastSequence: Int64? = nil
    /// Sequence numbers skipped over (a hint that events were lost upstream).
    public private(set) var sequenceGaps: UInt64 = 0

    /// The four optional times below, packed (``OptionalWords``): 33 bytes instead of 64, with
    /// `setupDriver` in their padding.
    private var times = OptionalWords()
    /// What drives setup: `engineStarted` (waiting for an available account or a cycle to
    /// complete it, or not), or `containerEvent`s.
    var setupDriver = SetupDriver.engine

    public private(set) var recordsFetched = RecordCounts()
    public private(set) var recordsSent = RecordCounts()
    /// `accountChange` events by type.
    public private(set) var accountChanges = AccountChangeCounts()
    /// Errors by phase (`nil` for an `error` event without one) and code label.
    public private(set) var errors: [ErrorCounterKey: UInt64] = [:]

    /// The pair's canary, as its owner last reported it (docs/canary.md); not persisted.
    public internal(set) var canary: CanaryStatus? = nil
    /// The pair exists for its canary and no engine has sent an event for it yet: the canary's
    /// moves and acknowledgements count as imports and exports. `nil` once an engine reports.
    public internal(set) var canaryOnly: Bool? = nil
    /// Why the pair's source cannot see its engine at all (a `unit:` source's unit that systemd
    /// does not know, docs/systemd-units.md): while set the summary is `unknown` and no stall fires,
    /// whatever else the pair holds. Not persisted: the source says it again when it starts.
    public internal(set) var unknownBecause: String? = nil

    /// What was last reported for this pair, so that changes can be announced once.
    public internal(set) var reported: Evaluation? = nil
    /// Until when `reported` stays the verdict if no event arrives: the earliest stall falling
    /// due, heartbeat limit or throttle end. Any event (or a configuration change) resets it,
    /// so the next look evaluates. Not persisted: a restored pair is looked at once.
    var verdictHoldsUntil = Timestamp.distantPast
    /// When `reported` was last judged: a later look never judges the pair at an earlier time,
    /// so its verdicts follow one clock (``PairTable/lookTime(ofPairAt:eventAt:receivedAt:)``).
    /// Not persisted.
    var judgedAt = Timestamp.distantPast

    /// When the pending total last went from zero to above zero.
    public private(set) var pendingSince: Timestamp? {
        get { self.times[time: 0] }
        set { self.times[time: 0] = newValue }
    }
    /// Until when the engine was told to wait (`retryAfter`); may be in the past.
    public private(set) var throttledUntil: Timestamp? {
        get { self.times[time: 1] }
        set { self.times[time: 1] = newValue }
    }
    /// When the latest suppression (down, stopped, no network, no account) ended; throttles
    /// are folded in lazily from `throttledUntil`.
    var suppressionEnded: Timestamp? {
        get { self.times[time: 2] }
        set { self.times[time: 2] = newValue }
    }
    /// The first transient error after the latest success of any phase (`retry_loop`).
    public private(set) var transientSinceSuccess: Timestamp? {
        get { self.times[time: 3] }
        set { self.times[time: 3] = newValue }
    }

    /// A pair first seen at `firstEvent`, while the host's network is `hostNetwork`.
    public init(firstEvent: Timestamp, hostNetwork: NetworkStatus = .unknown) {
        self.firstEvent = firstEvent
        self.lastEvent = firstEvent
        self.hostNetwork = hostNetwork
    }

    /// The network as status, metrics and the stall detectors see it: the engine's own word,
    /// else the host's view (docs/protocol.md, "Account and network").
    public var network: NetworkStatus {
        NetworkStatus.seen(engine: self.engineNetwork, host: self.hostNetwork)
    }

    // Inlinable so that reading one field through it (as /metrics does for every pair and
    // phase) does not copy the whole tracker.
    @inlinable
    public subscript(phase: Phase) -> PhaseTracker {
        switch phase {
        case .setup: self.setup
        case .import: self.importPhase
        case .export: self.exportPhase
        }
    }

    // One field of one phase, read in place: `self[phase].runs` would copy the whole tracker
    // (and retain its histogram) first, and /metrics reads six fields of every phase of every
    // pair per scrape.

    /// The state name of `phase`.
    @inlinable
    public func stateName(of phase: Phase) -> PhaseStateName {
        switch phase {
        case .setup: self.setup.state.name
        case .import: self.importPhase.state.name
        case .export: self.exportPhase.state.name
        }
    }

    /// When the latest successful cycle of `phase` ended.
    @inlinable
    public func lastSuccess(of phase: Phase) -> Timestamp? {
        switch phase {
        case .setup: self.setup.lastSuccess
        case .import: self.importPhase.lastSuccess
        case .export: self.exportPhase.lastSuccess
        }
    }

    /// Completed cycles of `phase`, and how many of them failed.
    @inlinable
    public func runs(of phase: Phase) -> (runs: UInt64, failures: UInt64) {
        switch phase {
        case .setup: (self.setup.runs, self.setup.failures)
        case .import: (self.importPhase.runs, self.importPhase.failures)
        case .export: (self.exportPhase.runs, self.exportPhase.failures)
        }
    }

    /// The cycle durations of `phase`.
    @inlinable
    public func durations(of phase: Phase) -> DurationHistogram {
        switch phase {
        case .setup: self.setup.durations
        case .import: self.importPhase.durations
        case .export: self.exportPhase.durations
        }
    }

    private mutating func withPhase<Result>(_ phase: Phase, _ body: (inout PhaseTracker) -> Result) -> Result {
        switch phase {
        case .setup: body(&self.setup)
        case .import: body(&self.importPhase)
        case .export: body(&self.exportPhase)
        }
    }
}

/// Record counts by operation: modifications/deletions fetched, or saves/deletes sent.
public struct RecordCounts: Equatable, Sendable, Codable {
    public var changed: UInt64 = 0
    public var deleted: UInt64 = 0
}

/// The labels of one `syncmon_errors_total` series (the class follows from the code).
public struct ErrorCounterKey: Hashable, Comparable, Sendable, Codable {
    /// The phase, `nil` for an `error` event that named none.
    public var phase: Phase?
    public var code: ErrorCodeLabel

    public static func < (lhs: ErrorCounterKey, rhs: ErrorCounterKey) -> Bool {
        let left = lhs.phase?.rawValue ?? -1
        let right = rhs.phase?.rawValue ?? -1
        return left != right ? left < right : lhs.code < rhs.code
    }
}

// MARK: - Applying events

extension PairState {
    /// Applies the event unless its `seq` is not above the last accepted one (a duplicate after
    /// a resume, docs/protocol.md#rejections); returns whether it was applied.
    ///
    /// `inout` only so that ``Monitor`` hands on the event it was handed in place: passed by
    /// value out of an `inout`, Swift copies it (393 bytes, its strings retained) for every
    /// event. The event is not changed.
    mutating func applyIfNew(_ event: inout Event, at time: Timestamp, connection: UInt64?) -> Bool {
        if let sequence = event.sequence, let last = self.lastSequence, sequence <= last { return false }
        self.apply(stored: &event, at: time, connection: connection)
        return true
    }

    /// Applies one accepted event that happened at `time`; `connection` names the push
    /// connection that carried it, if any.
    public mutating func apply(_ event: Event, at time: Timestamp, connection: UInt64? = nil) {
        var event = event
        self.apply(stored: &event, at: time, connection: connection)
    }

    /// ``apply(_:at:connection:)`` for an event handed on in place (``applyIfNew(_:at:connection:)``
    /// says why `inout`). The event is not changed.
    mutating func apply(stored event: inout Event, at time: Timestamp, connection: UInt64?) {
        self.verdictHoldsUntil = .distantPast
        // From the first event on, the phases are the engine's (docs/canary.md).
        self.canaryOnly = nil
        let wasSuppressed = self.isSuppressed(at: time, includingThrottle: false)
        if let sequence = event.sequence {
            // Written as a difference: `last + 1` would overflow for a last `seq` of Int64.max.
            if let last = self.lastSequence, sequence > last, sequence - last > 1 { self.sequenceGaps &+= UInt64(sequence - last - 1) }
            self.lastSequence = sequence
        }
        // Any event means the engine is heard from again (docs/protocol.md#account-and-network, docs/protocol.md#liveness).
        self.liveness = self.liveness.heard()
        if time > self.lastEvent { self.lastEvent = time }

        // The events without data by their type: matching the payload copies it (200 bytes)
        // to the stack, twice, on every event.
        switch event.type {
        case .willFetchChanges: self.importPhase.start(at: time)
        case .willFetchRecordZoneChanges: self.importPhase.progress(at: time)
        case .didFetchChanges: self.endCycle(.import, at: time)
        case .willSendChanges: self.exportPhase.start(at: time)
        case .didSendChanges: self.endCycle(.export, at: time)
        default: self.applyPayload(of: &event, at: time, connection: connection)
        }

        if wasSuppressed, !self.isSuppressed(at: time, includingThrottle: false) {
            self.suppressionEnded = max(self.suppressionEnded ?? time, time)
        }
    }

    /// What an event with data does (the others are `apply(_:at:connection:)`'s).
    private mutating func applyPayload(of event: inout Event, at time: Timestamp, connection: UInt64?) {
        switch event.payload {
        case .willFetchChanges, .willFetchRecordZoneChanges, .didFetchChanges, .willSendChanges, .didSendChanges:
            break
        case .fetchedDatabaseChanges(let modifications, let deletions),
            .fetchedRecordZoneChanges(let modifications, let deletions):
            self.importPhase.progress(at: time)
            self.recordsFetched.changed &+= UInt64(modifications)
            self.recordsFetched.deleted &+= UInt64(deletions)
        case .didFetchRecordZoneChanges(let error):
            self.importPhase.progress(at: time)
            if let error {
                self.count(error, phase: .import, at: time)
                self.importPhase.note(error)
            }
        case .sentDatabaseChanges(_, _, let failures):
            self.exportPhase.progress(at: time)
            self.count(failures, phase: .export, at: time)
        case .sentRecordZoneChanges(let saved, let deleted, let failures):
            self.exportPhase.progress(at: time)
            self.recordsSent.changed &+= UInt64(saved)
            self.recordsSent.deleted &+= UInt64(deleted)
            self.count(failures, phase: .export, at: time)
        case .stateUpdate(let recordZone, let database):
            self.setPending(recordZone: recordZone ?? self.pendingRecordZoneChanges, database: database ?? self.pendingDatabaseChanges, at: time)
        case .accountChange(let change):
            self.apply(change, at: time)
        case .containerEvent(let containerEvent):
            self.apply(containerEvent, at: time)
        case .accountStatus(let status):
            self.account = status
            // Only `accountStatus available`, not `accountChange`, completes setup (docs/protocol.md#scope).
            if status == .available { self.completeEngineSetup(at: time) }
        case .networkStatus(let available):
            self.engineNetwork = available ? .available : .unavailable
        case .engineStarted, .heartbeat, .engineStopped, .runStarted, .runEnded, .forget:
            self.applyLifecycle(event.payload, at: time, connection: connection)
        case .error(let phase, let error):
            self.count(error, phase: phase, at: time)
            if phase == .setup, error.errorClass == .actionable {
                if self.setupDriver == .engineAwaitingCompletion { self.setupDriver = .engine }
                self.setup.fail(at: time, error: error)
            } else if let phase, phase != .setup {
                // Counts toward the phase's open cycle, if it has one (docs/protocol.md#what-each-event-does). Setup has no
                // cycle errors: a CKSyncEngine setup completes by account or cycle, and a
                // containerEvent setup reports its own outcome.
                self.withPhase(phase) { _ = $0.note(error) }
            }
        }
    }

    private mutating func apply(_ change: AccountChangeType, at time: Timestamp) {
        self.accountChanges[change] += 1
        switch change {
        case .signOut:
            self.account = .noAccount
        case .signIn, .switchAccounts:
            // CKSyncEngine resets its state and clears pending changes on an account change.
            self.account = .available
            self.setPending(recordZone: 0, database: 0, at: time)
        }
    }

    /// The events that say whether the engine runs (docs/protocol.md#liveness).
    private mutating func applyLifecycle(_ payload: EventPayload, at time: Timestamp, connection: UInt64?) {
        switch payload {
        case .engineStarted(let heartbeatInterval):
            self.liveness = .up(heartbeat: heartbeatInterval, connection: connection)
            if self.setupDriver != .container {
                self.setup.start(at: time)
                self.setupDriver = .engineAwaitingCompletion
            }
        case .engineStopped:
            self.liveness = .stopped
        case .runStarted(let heartbeatInterval):
            // A batch job's run: the promise and the tie of `engineStarted`, but no setup. A job
            // has none, and a setup that succeeded would raise `not_syncing` on an export-only job.
            self.liveness = .up(heartbeat: heartbeatInterval, connection: connection)
        case .runEnded:
            // Between runs the job shows the outcome of its phases: no promise to keep, and its
            // connection closing is not a crash. Unlike `engineStopped`, not `stopped`.
            self.liveness = .heardFrom
        default:
            // `heartbeat` only says the engine is heard from; `forget` never reaches a pair
            // (`Monitor.forget` removes it).
            break
        }
    }

    private mutating func apply(_ event: ContainerEvent, at time: Timestamp) {
        if event.kind == .setup { self.setupDriver = .container }
        guard let ended = event.ended else {
            self.withPhase(event.kind) { $0.start(at: event.started, containerIdentifier: event.identifier) }
            return
        }
        let succeeded = event.succeeded ?? (event.error == nil)
        var phaseError: PhaseError? = nil
        if let error = event.error {
            self.count(error, phase: event.kind, at: time)
        }
        if !succeeded {
            // A failure without an error is reported as `unknown`; a conflict code is actionable here (docs/protocol.md#containerevent).
            let code = event.error?.code ?? ErrorCode(.unknown)
            if event.error == nil { self.countError(code: code, phase: event.kind) }
            phaseError = PhaseError(code: code, errorClass: code.errorClass == .transient ? .transient : .actionable, message: event.error?.message)
        }
        let outcome = self.withPhase(event.kind) {
            $0.end(containerIdentifier: event.identifier, started: event.started, ended: ended, error: phaseError)
        }
        self.finished(event.kind, outcome, at: ended)
    }

    mutating func endCycle(_ phase: Phase, at time: Timestamp) {
        let outcome = self.withPhase(phase) { $0.end(at: time) }
        self.finished(phase, outcome, at: time)
    }

    /// Bookkeeping after any cycle ends.
    private mutating func finished(_ phase: Phase, _ outcome: PhaseTracker.Outcome, at time: Timestamp) {
        if outcome == .succeeded { self.transientSinceSuccess = nil }
        // A completed import or export cycle, whatever its outcome, completes a CKSyncEngine setup.
        if phase != .setup { self.completeEngineSetup(at: time) }
    }

    private mutating func completeEngineSetup(at time: Timestamp) {
        guard self.setupDriver == .engineAwaitingCompletion else { return }
        self.setupDriver = .engine
        let outcome = self.setup.end(at: time)
        if outcome == .succeeded { self.transientSinceSuccess = nil }
    }

    private mutating func setPending(recordZone: Int64, database: Int64, at time: Timestamp) {
        let wasPending = self.pendingRecordZoneChanges > 0 || self.pendingDatabaseChanges > 0
        self.pendingRecordZoneChanges = recordZone
        self.pendingDatabaseChanges = database
        let isPending = recordZone > 0 || database > 0
        if isPending, !wasPending { self.pendingSince = time }
        if !isPending { self.pendingSince = nil }
    }

    /// Counts one error: the counter, the throttle and the retry-loop clock.
    private mutating func count(_ error: SyncError, phase: Phase?, at time: Timestamp) {
        self.countError(code: error.code, phase: phase)
        self.noteSideEffects(errorClass: error.errorClass, retryAfter: error.retryAfter, at: time)
    }

    /// Counts a failure list and folds it into the phase's open cycle.
    private mutating func count(_ failures: FailureDigest, phase: Phase, at time: Timestamp) {
        guard failures.count > 0 else { return }
        failures.codes.forEach { label, count in
            self.errors[ErrorCounterKey(phase: phase, code: label), default: 0] &+= UInt64(count)
        }
        self.withPhase(phase) { $0.note(failures) }
        if failures.firstTransient != nil { self.noteSideEffects(errorClass: .transient, retryAfter: nil, at: time) }
        if let retryAfter = failures.retryAfter { self.throttle(until: time.adding(retryAfter), at: time) }
    }

    private mutating func countError(code: ErrorCode, phase: Phase?) {
        self.errors[ErrorCounterKey(phase: phase, code: code.label), default: 0] &+= 1
    }

    private mutating func noteSideEffects(errorClass: ErrorClass, retryAfter: TimeSpan?, at time: Timestamp) {
        if errorClass == .transient, self.transientSinceSuccess == nil { self.transientSinceSuccess = time }
        // Any error carrying retryAfter throttles, whatever its class (docs/protocol.md#what-each-event-does).
        if let retryAfter { self.throttle(until: time.adding(retryAfter), at: time) }
    }

    /// Sets the throttle; a later one replaces an earlier one, even when it is shorter.
    private mutating func throttle(until end: Timestamp, at time: Timestamp) {
        if let previous = self.throttledUntil, previous <= time {
            // The previous throttle already ran out: remember it as the end of a suppression.
            self.suppressionEnded = max(self.suppressionEnded ?? previous, previous)
        }
        self.throttledUntil = end
    }

    /// The host's view of the network changed at `time`. It matters only while the engine has
    /// never spoken of its network; then the host coming back ends a suppression, and every
    /// stall clock starts over from `time` (the full threshold, docs/protocol.md).
    public mutating func setHostNetwork(_ status: NetworkStatus, at time: Timestamp) {
        guard status != self.hostNetwork else { return }
        guard self.engineNetwork == .unknown else {
            self.hostNetwork = status
            return
        }
        self.verdictHoldsUntil = .distantPast
        let wasSuppressed = self.isSuppressed(at: time, includingThrottle: false)
        self.hostNetwork = status
        if wasSuppressed, !self.isSuppressed(at: time, includingThrottle: false) {
            self.suppressionEnded = max(self.suppressionEnded ?? time, time)
        }
    }

    /// The pair's source can no longer (`reason`) or again (`nil`) see its engine at `time`;
    /// when it sees it again, the stall clocks restart from then, as after any suppression.
    mutating func setUnknown(because reason: String?, at time: Timestamp) {
        guard reason != self.unknownBecause else { return }
        self.verdictHoldsUntil = .distantPast
        if reason == nil { self.suppressionEnded = max(self.suppressionEnded ?? time, time) }
        self.unknownBecause = reason
    }

    /// The push connection this pair is tied to closed after a single line: a one-shot
    /// sender's, which ties nothing. Returns whether the pair was tied to it.
    mutating func connectionReleased() -> Bool {
        guard self.liveness.connection != nil else { return false }
        self.liveness = self.liveness.released()
        return true
    }

    /// The source that reads this pair's engine cannot reach it: down until heard from again.
    mutating func engineUnreachable() {
        self.verdictHoldsUntil = .distantPast
        self.liveness = .down(heartbeat: self.liveness.heartbeat)
    }

    /// The push connection this pair is tied to closed without `engineStopped`.
    public mutating func connectionClosed() {
        guard self.liveness.connection != nil else { return }
        self.verdictHoldsUntil = .distantPast
        self.liveness = self.liveness.connectionClosed()
    }
}

// MARK: - Persistence

extension PairState: Codable {
    /// The keys of a state file's pair. `heartbeatInterval`, `containerSetupSeen` and
    /// `engineSetupPending` are the v1.1 form of the promise and the setup driver, still
    /// written so that a daemon of the release before can load the file after a downgrade;
    /// `liveness` is new in v1.2 (docs/operations.md#persisted-state). The engine's own network
    /// is kept under `network`, as before the host view existed.
    enum CodingKeys: String, CodingKey {
        case setup, importPhase = "import", exportPhase = "export", account, engineNetwork = "network"
        case pendingRecordZoneChanges, pendingDatabaseChanges, pendingSince, throttledUntil, heartbeatInterval, liveness
        case firstEvent, lastEvent, lastSequence, sequenceGaps, suppressionEnded, transientSinceSuccess
        case containerSetupSeen, engineSetupPending, recordsFetched, recordsSent, accountChanges, errors, reported, canaryOnly
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.firstEvent = try container.decode(Timestamp.self, forKey: .firstEvent)
        self.lastEvent = try container.decode(Timestamp.self, forKey: .lastEvent)
        self.setup = try container.decode(PhaseTracker.self, forKey: .setup)
        self.importPhase = try container.decode(PhaseTracker.self, forKey: .importPhase)
        self.exportPhase = try container.decode(PhaseTracker.self, forKey: .exportPhase)
        self.account = try container.decode(AccountStatus.self, forKey: .account)
        self.engineNetwork = try container.decode(NetworkStatus.self, forKey: .engineNetwork)
        self.pendingRecordZoneChanges = try container.decode(Int64.self, forKey: .pendingRecordZoneChanges)
        self.pendingDatabaseChanges = try container.decode(Int64.self, forKey: .pendingDatabaseChanges)
        self.pendingSince = try container.decodeIfPresent(Timestamp.self, forKey: .pendingSince)
        self.throttledUntil = try container.decodeIfPresent(Timestamp.self, forKey: .throttledUntil)
        self.lastSequence = try container.decodeIfPresent(Int64.self, forKey: .lastSequence)
        self.sequenceGaps = try container.decode(UInt64.self, forKey: .sequenceGaps)
        self.suppressionEnded = try container.decodeIfPresent(Timestamp.self, forKey: .suppressionEnded)
        self.transientSinceSuccess = try container.decodeIfPresent(Timestamp.self, forKey: .transientSinceSuccess)
        self.recordsFetched = try container.decode(RecordCounts.self, forKey: .recordsFetched)
        self.recordsSent = try container.decode(RecordCounts.self, forKey: .recordsSent)
        self.accountChanges = AccountChangeCounts(counts: try container.decode([UInt64].self, forKey: .accountChanges))
        self.errors = try container.decode([ErrorCounterKey: UInt64].self, forKey: .errors)
        self.reported = try container.decodeIfPresent(Evaluation.self, forKey: .reported)
        self.canaryOnly = try container.decodeIfPresent(Bool.self, forKey: .canaryOnly)
        if try container.decode(Bool.self, forKey: .containerSetupSeen) {
            self.setupDriver = .container
        } else if try container.decode(Bool.self, forKey: .engineSetupPending) {
            self.setupDriver = .engineAwaitingCompletion
        }
        let heartbeat = try container.decodeIfPresent(TimeSpan.self, forKey: .heartbeatInterval)
        if let saved = try container.decodeIfPresent(PersistedLiveness.self, forKey: .liveness) {
            self.liveness = saved.liveness(heartbeat: heartbeat, lastEvent: self.lastEvent)
        } else {
            self.liveness = PersistedLiveness.fromVersion1_1(heartbeat: heartbeat, reported: self.reported?.summary)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.firstEvent, forKey: .firstEvent)
        try container.encode(self.lastEvent, forKey: .lastEvent)
        try container.encode(self.setup, forKey: .setup)
        try container.encode(self.importPhase, forKey: .importPhase)
        try container.encode(self.exportPhase, forKey: .exportPhase)
        try container.encode(self.account, forKey: .account)
        try container.encode(self.engineNetwork, forKey: .engineNetwork)
        try container.encode(self.pendingRecordZoneChanges, forKey: .pendingRecordZoneChanges)
        try container.encode(self.pendingDatabaseChanges, forKey: .pendingDatabaseChanges)
        try container.encodeIfPresent(self.pendingSince, forKey: .pendingSince)
        try container.encodeIfPresent(self.throttledUntil, forKey: .throttledUntil)
        try container.encodeIfPresent(self.lastSequence, forKey: .lastSequence)
        try container.encode(self.sequenceGaps, forKey: .sequenceGaps)
        try container.encodeIfPresent(self.suppressionEnded, forKey: .suppressionEnded)
        try container.encodeIfPresent(self.transientSinceSuccess, forKey: .transientSinceSuccess)
        try container.encode(self.recordsFetched, forKey: .recordsFetched)
        try container.encode(self.recordsSent, forKey: .recordsSent)
        try container.encode(self.accountChanges.counts, forKey: .accountChanges)
        try container.encode(self.errors, forKey: .errors)
        try container.encodeIfPresent(self.reported, forKey: .reported)
        try container.encodeIfPresent(self.canaryOnly, forKey: .canaryOnly)
        try container.encode(self.setupDriver == .container, forKey: .containerSetupSeen)
        try container.encode(self.setupDriver == .engineAwaitingCompletion, forKey: .engineSetupPending)
        try container.encodeIfPresent(self.liveness.heartbeat, forKey: .heartbeatInterval)
        try container.encode(PersistedLiveness(self.liveness), forKey: .liveness)
    }
}
