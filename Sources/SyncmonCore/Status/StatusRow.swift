/// One row of status (docs/protocol.md#status-json): a pair's verdict and the facts behind it at one moment.
public struct StatusRow: Sendable {
    public var key: PairKey
    public var summary: Summary
    public var stalls: StallSet
    public var account: AccountStatus
    public var network: NetworkStatus
    public var setup: PhaseState
    public var importPhase: PhaseState
    public var exportPhase: PhaseState
    /// Each phase's outstanding failure, by `Phase.rawValue`.
    public var failing: [OutstandingFailure?]
    /// `nil` once the throttle has passed.
    public var throttledUntil: Timestamp?
    public var pendingRecordZoneChanges: Int64
    public var pendingDatabaseChanges: Int64
    public var lastEvent: Timestamp
    public var up: Bool
    /// The pair's canary, when it has one (docs/canary.md).
    public var canary: CanaryStatus? = nil
    /// Why syncmon cannot tell how the engine does, when its summary is `unknown` for a reason
    /// (a `unit:` source's unit that systemd does not know: `unit not-found`).
    public var unknownReason: String? = nil

    /// A row as read back from status JSON (the `status` command renders what the daemon sent).
    public init(
        key: PairKey,
        summary: Summary,
        stalls: StallSet,
        account: AccountStatus,
        network: NetworkStatus,
        phases: (setup: PhaseState, import: PhaseState, export: PhaseState),
        failing: (setup: OutstandingFailure?, import: OutstandingFailure?, export: OutstandingFailure?) = (nil, nil, nil),
        throttledUntil: Timestamp?,
        pending: (recordZone: Int64, database: Int64),
        lastEvent: Timestamp,
        up: Bool
    ) {
        self.key = key
        self.summary = summary
        self.stalls = stalls
        self.account = account
        self.network = network
        self.setup = phases.setup
        self.importPhase = phases.import
        self.exportPhase = phases.export
        self.failing = [failing.setup, failing.import, failing.export]
        self.throttledUntil = throttledUntil
        self.pendingRecordZoneChanges = pending.recordZone
        self.pendingDatabaseChanges = pending.database
        self.lastEvent = lastEvent
        self.up = up
    }

    public init(key: PairKey, state: PairState, at now: Timestamp, thresholds: StallThresholds) {
        let evaluation = state.evaluate(at: now, thresholds: thresholds)
        self.key = key
        self.summary = evaluation.summary
        self.stalls = evaluation.stalls
        self.account = state.account
        self.network = state.network
        self.setup = state.setup.state
        self.importPhase = state.importPhase.state
        self.exportPhase = state.exportPhase.state
        self.failing = Phase.allCases.map { state[$0].failing }
        self.throttledUntil = state.activeThrottle(at: now)
        self.pendingRecordZoneChanges = state.pendingRecordZoneChanges
        self.pendingDatabaseChanges = state.pendingDatabaseChanges
        self.lastEvent = state.lastEvent
        self.up = state.isUp(at: now)
        self.canary = state.canary
        self.unknownReason = state.unknownBecause
    }

    /// The outstanding failure of `phase`, if any.
    public func failing(_ phase: Phase) -> OutstandingFailure? {
        self.failing[phase.rawValue]
    }

    /// The failure the summary shows: the first phase with an actionable outstanding
    /// failure, else the first with a transient one.
    public var outstandingFailure: (phase: Phase, failure: OutstandingFailure)? {
        OutstandingFailure.shown(setup: self.failing(.setup), import: self.failing(.import), export: self.failing(.export))
    }

    public subscript(phase: Phase) -> PhaseState {
        switch phase {
        case .setup: self.setup
        case .import: self.importPhase
        case .export: self.exportPhase
        }
    }
}
