import SyncmonCore

/// What the owner of a `unit:` source does with one `UnitAction`: core events for the pair, and
/// for a failed service, the end of the pair's tie so that it reads `engine_down`.
public struct UnitEffects: Sendable, Equatable {
    public var events: [Event] = []
    /// Close the pair's tie: the service is down.
    public var markDown = false
    /// Automatic restarts to count (`syncmon_unit_restarts_total`).
    public var restarts = 0
    /// A line for the log (a unit that is not loaded).
    public var notice: String? = nil
    /// Whether systemd knows the unit, when that changed: the pair is `unknown` while it does not.
    public var presence: UnitPresence? = nil

    public init() {}

    public static func == (lhs: UnitEffects, rhs: UnitEffects) -> Bool {
        lhs.events.map(\.payload) == rhs.events.map(\.payload) && lhs.markDown == rhs.markDown
            && lhs.restarts == rhs.restarts && lhs.notice == rhs.notice && lhs.presence == rhs.presence
    }
}

/// Whether systemd knows a `unit:` source's unit (docs/systemd-units.md): a unit it does not know makes the
/// pair `unknown` (not stopped, not a failed start) until it does.
public enum UnitPresence: Sendable, Equatable {
    /// systemd does not know the unit: the pair's summary is `unknown`, for this reason.
    case missing(reason: String)
    /// systemd knows the unit again: the pair follows it.
    case present
}

/// Turns `UnitAction`s into the core's own events (docs/systemd-units.md), so the state model, stall
/// detectors, metrics and logs apply unchanged:
/// - the service's health is the pair's setup: a `containerEvent` setup that succeeds when it runs,
///   fails with the failure's code (actionable) while it crashes, succeeds again when it recovered;
/// - a long-running service that runs is `engineStarted` without a heartbeat promise, tied to the
///   source, and a failed one has that tie closed (`engine_down`); a stop is `engineStopped`;
/// - a oneshot run is a `containerEvent` of the configured phase(s), from its start to its end.
public struct UnitEventMapper: Sendable {
    public let engine: InlineName
    public let database: Database
    /// The phases a oneshot run counts as: `import`, `export`, or both.
    public let phases: [Phase]
    private var setupOperations: UInt64 = 0

    public init(engine: InlineName, database: Database, phases: [Phase]) {
        self.engine = engine
        self.database = database
        self.phases = phases
    }

    /// The effects of `action`, which happened at `now`; `oneshot` for a service a timer runs.
    /// `message` is a failure's own words (docs/systemd-units.md: the last line the unit logged before it
    /// ended), kept with the outstanding failure as every failure's message is (docs/protocol.md).
    public mutating func effects(of action: UnitAction, oneshot: Bool, at now: Timestamp, message: String? = nil) -> UnitEffects {
        var effects = UnitEffects()
        switch action {
        case .notLoaded(let loadState):
            effects.notice = "the unit is not loaded (LoadState \(loadState)): is the name right? The pair stays unknown until it is"
            effects.presence = .missing(reason: "unit \(loadState)")
        case .loaded:
            effects.presence = .present
        case .up:
            self.setup(nil, at: now, into: &effects)
            // A timer's service runs now and then: its liveness is the timer's business, not a tie.
            if !oneshot { effects.events.append(self.event(.engineStarted(heartbeatInterval: nil), at: now)) }
        case .running:
            if !oneshot { effects.events.append(self.event(.engineStarted(heartbeatInterval: nil), at: now)) }
        case .stopped:
            effects.events.append(self.event(.engineStopped, at: now))
        case .failing(let failure):
            self.setup(failure, message: message, at: now, into: &effects)
        case .down(let failure):
            self.setup(failure, message: message, at: now, into: &effects)
            effects.markDown = true
        case .recovered:
            self.setup(nil, at: now, into: &effects)
        case .restarted(let count):
            effects.restarts = count
        case .cycleStarted(let started):
            for phase in self.phases {
                let start = ContainerEvent(kind: phase, identifier: Self.identifier(started), started: started)
                effects.events.append(self.event(.containerEvent(start), at: started))
            }
        case .cycleEnded(let started, let ended, let failure):
            let begin = started ?? ended
            for phase in self.phases {
                let end = ContainerEvent(
                    kind: phase, identifier: Self.identifier(begin), started: begin, ended: ended,
                    succeeded: failure == nil, error: failure.map { Self.error($0, message: message) }
                )
                effects.events.append(self.event(.containerEvent(end), at: ended))
            }
        }
        return effects
    }

    private mutating func setup(_ failure: UnitFailure?, message: String? = nil, at now: Timestamp, into effects: inout UnitEffects) {
        self.setupOperations &+= 1
        let start = ContainerEvent(kind: .setup, identifier: self.setupOperations, started: now)
        let end = ContainerEvent(
            kind: .setup, identifier: self.setupOperations, started: now, ended: now,
            succeeded: failure == nil, error: failure.map { Self.error($0, message: message) }
        )
        effects.events.append(self.event(.containerEvent(start), at: now))
        effects.events.append(self.event(.containerEvent(end), at: now))
    }

    private func event(_ payload: EventPayload, at time: Timestamp) -> Event {
        Event(engine: self.engine, database: self.database, time: time, payload: payload)
    }

    private static func error(_ failure: UnitFailure, message: String?) -> SyncError {
        SyncError(
            code: InlineName(failure.code).map { ErrorCode(name: $0) } ?? ErrorCode(name: InlineName("failed")!),
            message: message.flatMap { ErrorMessage.clean($0) }
        )
    }

    private static func identifier(_ time: Timestamp) -> UInt64 {
        UInt64(bitPattern: time.microseconds)
    }
}

extension UnitEventMapper {
    /// The stall thresholds of a unit's pair, from what is `configured` for its engine: as
    /// configured, but `not_syncing` is off unless set. A unit's setup carries only its failures
    /// (it succeeds whenever the service runs), so "setup succeeded, and no import since" would
    /// stall every healthy service that imports nothing a rules pack can see.
    public static func thresholds(configured: [StallReason: TimeSpan]) -> [StallReason: TimeSpan] {
        var thresholds = configured
        if thresholds[.notSyncing] == nil { thresholds[.notSyncing] = .zero }
        return thresholds
    }
}
