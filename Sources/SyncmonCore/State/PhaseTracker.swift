/// The life of one phase of one pair: its state, the cycle in flight, and its counters.
///
/// A cycle is a `will…`/`did…` pair (or a `containerEvent` start/end); the tracker collects what
/// happens inside it and decides the outcome when it ends.
public struct PhaseTracker: Equatable, Sendable, Codable {
    /// The state shown in status and metrics.
    public private(set) var state: PhaseState = .notStarted
    /// The first actionable error seen inside the open cycle.
    private var cycleActionable: SyncError? = nil
    /// The first transient error seen inside the open cycle.
    private var cycleTransient: SyncError? = nil
    /// Completed cycles, whatever their outcome.
    public private(set) var runs: UInt64 = 0
    /// Completed cycles that failed.
    public private(set) var failures: UInt64 = 0
    /// Durations of completed cycles.
    public private(set) var durations = DurationHistogram()
    /// The failure the phase has not yet recovered from: set when a cycle fails, kept while
    /// retries run, cleared only when a cycle of this phase succeeds. The summary's `error`
    /// and `retrying` come from here, not from `state`, so a failing engine that retries every
    /// few seconds reads as failing at every scrape instead of flapping to `in_progress`.
    public private(set) var failing: OutstandingFailure? = nil
    /// The optional times and the container id below, packed (``OptionalWords``): a tracker
    /// is 352 bytes instead of 384.
    /// Internal, not private: `PairState.lastStart(_:of:)` and `lastSuccess(_:of:)` read it in place.
    var words = OptionalWords()
    /// The latest cycle was ended by the engine's lines (`did…`), not by a `containerEvent`:
    /// an operation's end that arrives after it may be the same run (`endedInside`). Not
    /// persisted: a restart is between runs. Last, in the packed words' padding.
    private var lastEndedByLines = false

    /// The last progress event (a fetched/sent batch or a zone event) of the open cycle.
    public private(set) var lastProgress: Timestamp? {
        get { self.words[time: 0] }
        set { self.words[time: 0] = newValue }
    }
    /// The `containerEvent` id that opened the cycle, when one did.
    private var containerIdentifier: UInt64? {
        get { self.words[1].map { UInt64(bitPattern: $0) } }
        set { self.words[1] = newValue.map { Int64(bitPattern: $0) } }
    }
    /// When the latest cycle started (`syncmon_phase_last_start_timestamp_seconds`).
    public private(set) var lastStart: Timestamp? {
        get { self.words[time: Self.lastStartSlot] }
        set { self.words[time: Self.lastStartSlot] = newValue }
    }
    /// When the latest successful cycle ended (`syncmon_phase_last_success_timestamp_seconds`).
    public private(set) var lastSuccess: Timestamp? {
        get { self.words[time: Self.lastSuccessSlot] }
        set { self.words[time: Self.lastSuccessSlot] = newValue }
    }
    /// Where in ``words`` the two times above are.
    static let lastStartSlot = 2
    static let lastSuccessSlot = 3

    public init() {}

    /// How a cycle ended.
    enum Outcome: Equatable {
        case succeeded
        case failed(PhaseError)
    }

    /// Opens a cycle; a second start while one is open restarts it (docs/protocol.md#how-a-cycle-ends).
    mutating func start(at time: Timestamp, containerIdentifier: UInt64? = nil) {
        self.state = .inProgress(since: time)
        self.lastProgress = nil
        self.cycleActionable = nil
        self.cycleTransient = nil
        self.containerIdentifier = containerIdentifier
        self.lastStart = time
    }

    /// Records progress, opening a cycle implicitly when none is open (docs/protocol.md#phases, docs/protocol.md#how-a-cycle-ends).
    mutating func progress(at time: Timestamp) {
        if !self.state.isInProgress { self.start(at: time) }
        self.lastProgress = time
    }

    /// Counts an error toward the open cycle; `false` when no cycle is open.
    @discardableResult
    mutating func note(_ error: SyncError) -> Bool {
        guard self.state.isInProgress else { return false }
        switch error.errorClass {
        case .actionable where self.cycleActionable == nil: self.cycleActionable = error
        case .transient where self.cycleTransient == nil: self.cycleTransient = error
        default: break
        }
        return true
    }

    /// Counts every failure of a digest toward the open cycle.
    mutating func note(_ failures: FailureDigest) {
        if let error = failures.firstActionable { self.note(error) }
        if let error = failures.firstTransient { self.note(error) }
    }

    /// Ends the open cycle (`did…`); with none open, records a zero-length cycle ending now.
    /// It fails with the first actionable error seen, else with the first transient one.
    mutating func end(at time: Timestamp) -> Outcome {
        let started: Timestamp
        if case .inProgress(let since) = self.state {
            started = since
        } else {
            started = time
            self.lastStart = time
        }
        let error: PhaseError?
        if let actionable = self.cycleActionable {
            error = PhaseError(code: actionable.code, errorClass: .actionable, message: actionable.message)
        } else if let transient = self.cycleTransient {
            error = PhaseError(code: transient.code, errorClass: .transient, message: transient.message)
        } else {
            error = nil
        }
        let outcome = self.complete(started: started, ended: time, error: error)
        self.lastEndedByLines = true
        return outcome
    }

    /// Ends a cycle whose start and end the engine reported itself (`containerEvent`).
    ///
    /// When another cycle with a different id started after this one and is still open, the
    /// late end is counted but does not close the newer cycle.
    mutating func end(
        containerIdentifier: UInt64,
        started: Timestamp,
        ended: Timestamp,
        error: PhaseError?
    ) -> Outcome {
        if case .inProgress(let since) = self.state, self.containerIdentifier != containerIdentifier, since > started {
            self.count(started: started, ended: ended, error: error)
            return error.map { .failed($0) } ?? .succeeded
        }
        if let outcome = self.endedInside(started: started, ended: ended, error: error) { return outcome }
        if self.lastStart.map({ $0 < started }) ?? true { self.lastStart = started }
        return self.complete(started: started, ended: ended, error: error)
    }

    /// The engine's own lines already ended a cycle inside this operation: a oneshot unit whose
    /// rules read rclone bisync's "Must run --resync" (an error, then `did…`), then its exit
    /// status 2. That cycle was the operation, counted once; its failure, in the tool's own
    /// code and words, is kept over the exit status's. `nil` when the end is news: no cycle
    /// the lines ended lies inside (another operation's end, however close in time, is its
    /// own), or the lines said success and the operation failed after all.
    private func endedInside(started: Timestamp, ended: Timestamp, error: PhaseError?) -> Outcome? {
        guard self.lastEndedByLines else { return nil }
        switch self.state {
        case .failed(let innerStart, let innerEnd, let lineError) where innerStart >= started && innerEnd <= ended:
            return .failed(lineError)
        case .succeeded(let innerStart, let innerEnd) where innerStart >= started && innerEnd <= ended && error == nil:
            return .succeeded
        default:
            return nil
        }
    }

    /// Fails the phase outright (an actionable `error` event with `phase: setup`).
    mutating func fail(at time: Timestamp, error: SyncError) {
        let started: Timestamp
        if case .inProgress(let since) = self.state {
            started = since
        } else {
            started = time
            self.lastStart = time
        }
        _ = self.complete(started: started, ended: time, error: PhaseError(code: error.code, errorClass: .actionable, message: error.message))
    }

    private mutating func complete(started: Timestamp, ended: Timestamp, error: PhaseError?) -> Outcome {
        self.lastEndedByLines = false
        self.count(started: started, ended: ended, error: error)
        self.lastProgress = nil
        self.cycleActionable = nil
        self.cycleTransient = nil
        self.containerIdentifier = nil
        if let error {
            self.state = .failed(started: started, ended: ended, error: error)
            return .failed(error)
        }
        self.state = .succeeded(started: started, ended: ended)
        return .succeeded
    }

    /// Counts a completed cycle and carries its outcome into the outstanding failure: a
    /// failure keeps the first `since` and shows the latest error; a success clears it.
    ///
    /// A retry that fails the same way without words keeps the words the failure had: a unit
    /// in a crash loop whose exit was read before journald had its last line (a busy host)
    /// would otherwise show, and notify, the failure without the message the crash before
    /// it found.
    private mutating func count(started: Timestamp, ended: Timestamp, error: PhaseError?) {
        self.runs += 1
        self.durations.observe(ended.since(started))
        if var error {
            self.failures += 1
            if error.message == nil, let previous = self.failing?.error, previous.code == error.code, previous.errorClass == error.errorClass {
                error.message = previous.message
            }
            self.failing = OutstandingFailure(since: self.failing?.since ?? ended, error: error)
        } else {
            self.failing = nil
            if self.lastSuccess.map({ $0 < ended }) ?? true { self.lastSuccess = ended }
        }
    }

    /// When the open cycle last showed life: its start or its latest progress.
    var lastActivity: Timestamp? {
        guard case .inProgress(let since) = self.state else { return nil }
        return max(since, self.lastProgress ?? since)
    }
}

/// A phase's failure that has not been followed by a successful cycle of the same phase.
public struct OutstandingFailure: Equatable, Sendable, Codable {
    /// When the first failed cycle since the phase last succeeded ended.
    public var since: Timestamp
    /// The error of the latest failed cycle: a retry that fails differently shows its own error.
    public var error: PhaseError

    public init(since: Timestamp, error: PhaseError) {
        self.since = since
        self.error = error
    }

    /// The failure a pair's summary shows, from its phases' outstanding failures: the first
    /// (setup, import, export) that is actionable, else the first transient one. The one rule
    /// for the state model and for status rows; it builds nothing, as it runs for every event.
    public static func shown(
        setup: OutstandingFailure?,
        import importFailure: OutstandingFailure?,
        export: OutstandingFailure?
    ) -> (phase: Phase, failure: OutstandingFailure)? {
        if setup == nil, importFailure == nil, export == nil { return nil }
        if let setup, setup.error.errorClass != .transient { return (.setup, setup) }
        if let importFailure, importFailure.error.errorClass != .transient { return (.import, importFailure) }
        if let export, export.error.errorClass != .transient { return (.export, export) }
        if let setup { return (.setup, setup) }
        if let importFailure { return (.import, importFailure) }
        return export.map { (.export, $0) }
    }
}

extension PhaseTracker {
    private enum CodingKeys: String, CodingKey {
        case state, lastProgress, cycleActionable, cycleTransient, containerIdentifier
        case lastStart, lastSuccess, runs, failures, durations, failing
    }

    /// Decodes persisted state. State written before outstanding failures existed has no
    /// `failing`: a phase saved as `failed` then was failing, so it comes back failing since
    /// that cycle's end rather than silently healthy after an upgrade.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.state = try container.decode(PhaseState.self, forKey: .state)
        self.lastProgress = try container.decodeIfPresent(Timestamp.self, forKey: .lastProgress)
        self.cycleActionable = try container.decodeIfPresent(SyncError.self, forKey: .cycleActionable)
        self.cycleTransient = try container.decodeIfPresent(SyncError.self, forKey: .cycleTransient)
        self.containerIdentifier = try container.decodeIfPresent(UInt64.self, forKey: .containerIdentifier)
        self.lastStart = try container.decodeIfPresent(Timestamp.self, forKey: .lastStart)
        self.lastSuccess = try container.decodeIfPresent(Timestamp.self, forKey: .lastSuccess)
        self.runs = try container.decode(UInt64.self, forKey: .runs)
        self.failures = try container.decode(UInt64.self, forKey: .failures)
        self.durations = try container.decode(DurationHistogram.self, forKey: .durations)
        if container.contains(.failing) {
            self.failing = try container.decodeIfPresent(OutstandingFailure.self, forKey: .failing)
        } else if case .failed(_, let ended, let error) = self.state {
            self.failing = OutstandingFailure(since: ended, error: error)
        }
    }

    /// `failing` is written even when `nil`, so that decoding can tell "recovered" from
    /// "written before outstanding failures existed".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.state, forKey: .state)
        try container.encodeIfPresent(self.lastProgress, forKey: .lastProgress)
        try container.encodeIfPresent(self.cycleActionable, forKey: .cycleActionable)
        try container.encodeIfPresent(self.cycleTransient, forKey: .cycleTransient)
        try container.encodeIfPresent(self.containerIdentifier, forKey: .containerIdentifier)
        try container.encodeIfPresent(self.lastStart, forKey: .lastStart)
        try container.encodeIfPresent(self.lastSuccess, forKey: .lastSuccess)
        try container.encode(self.runs, forKey: .runs)
        try container.encode(self.failures, forKey: .failures)
        try container.encode(self.durations, forKey: .durations)
        try container.encode(self.failing, forKey: .failing)
    }
}
