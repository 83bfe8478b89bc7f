/// The verdict on a pair at one moment: its summary and the stalls that fire.
public struct Evaluation: Hashable, Sendable, Codable {
    public var summary: Summary
    public var stalls: StallSet
}

extension PairState {
    /// The engine is neither stopped nor down (docs/protocol.md#account-and-network, docs/protocol.md#liveness),
    /// and its source can see it: a unit systemd does not know is not running.
    @inline(__always)
    public func isUp(at now: Timestamp) -> Bool {
        self.unknownBecause == nil && self.liveness != .stopped && !self.isDown(at: now)
    }

    /// Down: its push connection closed without `engineStopped`, or 3 × the promised heartbeat
    /// interval passed without any event (inclusive, docs/protocol.md#time).
    @inline(__always)
    public func isDown(at now: Timestamp) -> Bool {
        self.liveness.isDown(at: now, lastEvent: self.lastEvent)
    }

    /// The throttle still runs at `now`.
    @inline(__always)
    public func isThrottled(at now: Timestamp) -> Bool {
        self.throttledUntil.map { $0 > now } ?? false
    }

    /// `throttledUntil` as status shows it: `nil` once passed.
    public func activeThrottle(at now: Timestamp) -> Timestamp? {
        self.isThrottled(at: now) ? self.throttledUntil : nil
    }

    /// Stall detectors are suppressed while the engine could not have made progress.
    ///
    /// Inlined: `PairState.apply` calls it twice per event from a mutating method, where a
    /// non-mutating call that is not inlined copies the whole state (1.3 KB) first.
    @inline(__always)
    func isSuppressed(at now: Timestamp, includingThrottle: Bool = true) -> Bool {
        self.unknownBecause != nil || self.liveness == .stopped || self.isDown(at: now) || self.network == .unavailable || self.account.isKnownUnavailable
            || (includingThrottle && self.isThrottled(at: now))
    }

    /// The end of the latest suppression at `now`, counting a throttle that has run out.
    @inline(__always)
    private func lastSuppressionEnd(at now: Timestamp) -> Timestamp? {
        guard let throttle = self.throttledUntil, throttle <= now else { return self.suppressionEnded }
        return max(self.suppressionEnded ?? throttle, throttle)
    }

    /// The stalls that fire at `now` (docs/protocol.md#stall-detectors).
    public func stalls(at now: Timestamp, thresholds: StallThresholds) -> StallSet {
        var changesBy = Timestamp.distantFuture
        return self.stalls(at: now, thresholds: thresholds, changesBy: &changesBy)
    }

    /// The stalls that fire at `now`; lowers `changesBy` to the first later moment at which,
    /// without any event, the set could change (a stall falling due, the engine going down
    /// by missed heartbeats, a throttle running out).
    @inline(__always)
    private func stalls(at now: Timestamp, thresholds: StallThresholds, changesBy: inout Timestamp) -> StallSet {
        var stalls = StallSet()
        func due(_ moment: Timestamp?) {
            if let moment, moment > now, moment < changesBy { changesBy = moment }
        }
        due(self.throttledUntil)
        due(self.liveness.downAt(lastEvent: self.lastEvent))
        // Suppressed: nothing fires, and the clocks restart when the suppression ends, which is
        // an event or one of the moments above.
        guard !self.isSuppressed(at: now) else { return stalls }
        let suppressionEnd = self.lastSuppressionEnd(at: now)
        func fires(_ reason: StallReason, since conditionStart: Timestamp?) -> Bool {
            let threshold = thresholds[reason]
            guard threshold > .zero, let conditionStart else { return false }
            // The engine gets the full threshold after each suppression ends.
            let start = max(conditionStart, suppressionEnd ?? conditionStart)
            let fallsDue = start.adding(threshold)
            due(fallsDue)
            return now >= fallsDue
        }
        if fires(.notSyncing, since: self.notSyncingSince) { stalls.insert(.notSyncing) }
        // The oldest activity among open phases (evaluated often: no array built).
        func earliest(_ first: Timestamp?, _ second: Timestamp?) -> Timestamp? {
            guard let first, let second else { return first ?? second }
            return min(first, second)
        }
        let lastActivity = earliest(earliest(self.setup.lastActivity, self.importPhase.lastActivity), self.exportPhase.lastActivity)
        // No phase has been stuck since before the engine's latest start: a client greets each
        // connection with `engineStarted` before it sends its queue, whose times are older.
        let runStart = self.setup.lastStart
        if fires(.noProgress, since: lastActivity.map { max($0, runStart ?? $0) }) { stalls.insert(.noProgress) }
        if fires(.pendingNotDraining, since: self.pendingNotDrainingSince) { stalls.insert(.pendingNotDraining) }
        if fires(.retryLoop, since: self.transientSinceSuccess) { stalls.insert(.retryLoop) }
        if fires(.noRecentImport, since: self.importPhase.lastSuccess ?? self.firstEvent) {
            stalls.insert(.noRecentImport)
        }
        if fires(.noRecentExport, since: self.exportPhase.lastSuccess ?? self.firstEvent) {
            stalls.insert(.noRecentExport)
        }
        // The canary measured its own clocks (moves, writes, sightings, the daemon's start) on
        // the monotonic clock; the end of the pair's last suppression is added here, on the
        // clock every stall shares, so a suppression shorter than the canary's interval counts.
        if let canary = self.canary, canary.isLate, canary.lateAfter > .zero {
            let fallsDue = (suppressionEnd ?? .distantPast).adding(canary.lateAfter)
            due(fallsDue)
            if now >= fallsDue { stalls.insert(.canaryLate) }
        }
        return stalls
    }

    /// Setup succeeded and no import started at or after that setup's start: from its end.
    private var notSyncingSince: Timestamp? {
        guard case .succeeded(let started, let ended) = self.setup.state else { return nil }
        if let importStart = self.importPhase.lastStart, importStart >= started { return nil }
        return ended
    }

    /// Pending changes and no export success: from the later of the two.
    private var pendingNotDrainingSince: Timestamp? {
        guard let pendingSince = self.pendingSince else { return nil }
        return max(pendingSince, self.exportPhase.lastSuccess ?? pendingSince)
    }

    /// The verdict at `now` and the one reported before it, when they differ; the new one
    /// becomes the reported one. `nil` when nothing changed since the last report.
    ///
    /// With `onlyIfDue`, a pair whose verdict cannot have changed since it was last taken (no
    /// event since, and no threshold, heartbeat limit or throttle end reached) is not
    /// evaluated at all: the per-event and per-tick looks cost a comparison.
    @inline(__always)
    mutating func takeNewVerdict(at now: Timestamp, thresholds: StallThresholds, onlyIfDue: Bool) -> (previous: Evaluation?, current: Evaluation)? {
        if onlyIfDue, now < self.verdictHoldsUntil { return nil }
        var changesBy = Timestamp.distantFuture
        // Both inlined (`stalls`) or mutating (`summary`): a call of a non-mutating method that
        // is not inlined would copy the whole state first.
        let stalls = self.stalls(at: now, thresholds: thresholds, changesBy: &changesBy)
        let evaluation = Evaluation(summary: self.summary(at: now, stalls: stalls), stalls: stalls)
        self.verdictHoldsUntil = changesBy
        self.judgedAt = max(self.judgedAt, now)
        let previous = self.reported
        guard previous != evaluation else { return nil }
        self.reported = evaluation
        return (previous, evaluation)
    }

    /// One look for the owner's change log, taken in place: the verdict change (as
    /// ``takeNewVerdict(at:thresholds:onlyIfDue:)``), the deadline it holds until, and the
    /// failing phase when the verdict changed. Everything comes back from one mutating call
    /// because reading even one field of a pair held in a dictionary copies the whole pair
    /// (1.3 KB, its arrays retained): that copy was 40% of decode + apply.
    ///
    /// `notBefore` puts off the next look to then at the earliest (`distantPast`: not at all): a
    /// pair judged at a late event's time is judged at the daemon's only once its backlog has
    /// had time to come in.
    mutating func look(at now: Timestamp, thresholds: StallThresholds, onlyIfDue: Bool, notBefore: Timestamp) -> VerdictLook {
        let change = self.takeNewVerdict(at: now, thresholds: thresholds, onlyIfDue: onlyIfDue)
        self.verdictHoldsUntil = max(self.verdictHoldsUntil, notBefore)
        let failedPhase = change == nil ? nil : self.outstandingFailure.map { (phase: $0.phase, error: $0.error) }
        return VerdictLook(change: change, holdsUntil: self.verdictHoldsUntil, failedPhase: failedPhase)
    }

    /// The deadline the reported verdict holds until, read in place (see ``look(at:thresholds:onlyIfDue:notBefore:)``).
    mutating func currentDeadline() -> Timestamp {
        self.verdictHoldsUntil
    }

    /// The summary and stalls at `now` (docs/protocol.md#summary).
    public func evaluate(at now: Timestamp, thresholds: StallThresholds) -> Evaluation {
        let stalls = self.stalls(at: now, thresholds: thresholds)
        // Inlined here, read in place: `/metrics` evaluates every pair at every scrape, and a
        // copy of the state to call the mutating form cost 1,400 copies of 1.5 KB (every
        // reference retained) a scrape.
        return Evaluation(summary: self.summaryInPlace(at: now, stalls: stalls), stalls: stalls)
    }

    /// The summary, given the stalls (docs/protocol.md#summary).
    ///
    /// Mutating though it changes nothing: the hot path calls it from a mutating method, where
    /// a call of a non-mutating method that is not inlined copies the whole state (1.3 KB,
    /// every reference in it retained) first, and so does reading a field through a pointer.
    private mutating func summary(at now: Timestamp, stalls: StallSet) -> Summary {
        self.summaryInPlace(at: now, stalls: stalls)
    }

    /// ``summary(at:stalls:)``'s rules, always inlined so that neither caller copies the state.
    @inline(__always)
    private func summaryInPlace(at now: Timestamp, stalls: StallSet) -> Summary {
        // Nothing the pair holds says anything while its source cannot see the engine at all.
        if self.unknownBecause != nil { return .unknown }
        if self.liveness == .stopped { return .stopped }
        if self.isDown(at: now) { return .engineDown }
        if self.network == .unavailable { return .noNetwork }
        if self.account.isKnownUnavailable { return .accountNotAvailable }
        // Outstanding failures, not the current states: a retry in flight does not hide a failure.
        // Most pairs fail nowhere: checked in place before building the shown failure (which
        // copies three trackers' failures, ~2% of decode + apply when done for every event).
        let anyFailing = self.setup.failing != nil || self.importPhase.failing != nil || self.exportPhase.failing != nil
        let failing = anyFailing ? self.outstandingFailure : nil
        if let failing, failing.error.errorClass != .transient { return .error }
        if !stalls.isEmpty { return .stalled }
        if self.isThrottled(at: now) { return .throttled }
        if failing != nil { return .retrying }
        let importState = self.importPhase.state
        let exportState = self.exportPhase.state
        if importState == .notStarted, exportState == .notStarted { return .notStarted }
        if self.setup.state.isInProgress || importState.isInProgress || exportState.isInProgress { return .inProgress }
        if importState.name == .succeeded || exportState.name == .succeeded { return .succeeded }
        return .unknown
    }

    /// The failure the summary shows: the first phase (setup, import, export) with an
    /// actionable outstanding failure, else the first with a transient one.
    @inline(__always)
    public var outstandingFailure: (phase: Phase, error: PhaseError, since: Timestamp)? {
        // The fields themselves, not `self[phase]`: this runs for every event, and a whole
        // tracker copied out would retain its histogram each time.
        OutstandingFailure.shown(setup: self.setup.failing, import: self.importPhase.failing, export: self.exportPhase.failing)
            .map { ($0.phase, $0.failure.error, $0.failure.since) }
    }
}

/// What one look at a pair found (``PairState/look(at:thresholds:onlyIfDue:)``).
struct VerdictLook {
    /// The verdict before and after, when it changed.
    var change: (previous: Evaluation?, current: Evaluation)?
    /// Until when the new verdict holds without an event.
    var holdsUntil: Timestamp
    /// The failing phase and its error, when the verdict changed and a phase fails.
    var failedPhase: (phase: Phase, error: PhaseError)?
}

extension PairState {
    // The forms `/metrics` calls for every pair, given where the pair is held. From another
    // module, calling a method or computed property on a pair read through a pointer copies
    // the whole state first (1.4 KB, every reference in it retained). These read the fields
    // where they are: two copies fewer per pair and scrape. (`evaluate(at:thresholds:)` still
    // copies: the same form of it copied too, as what it calls is not all inlined.)

    /// ``isUp(at:)`` of the pair at `state`.
    public static func isUp(_ state: UnsafePointer<PairState>, at now: Timestamp) -> Bool {
        state.pointee.isUp(at: now)
    }

    /// When the latest cycle of `phase` started, for the pair at `state`.
    public static func lastStart(_ state: UnsafePointer<PairState>, of phase: Phase) -> Timestamp? {
        Self.time(state, of: phase, slot: PhaseTracker.lastStartSlot)
    }

    /// When the latest successful cycle of `phase` ended, for the pair at `state`.
    public static func lastSuccess(_ state: UnsafePointer<PairState>, of phase: Phase) -> Timestamp? {
        Self.time(state, of: phase, slot: PhaseTracker.lastSuccessSlot)
    }

    /// A tracker's time read from its packed words in place: its computed `lastStart` and
    /// `lastSuccess`, read through the pointer, copied the trackers (346 bytes each).
    @inline(__always)
    private static func time(_ state: UnsafePointer<PairState>, of phase: Phase, slot: Int) -> Timestamp? {
        switch phase {
        case .setup: state.pointee.setup.words[time: slot]
        case .import: state.pointee.importPhase.words[time: slot]
        case .export: state.pointee.exportPhase.words[time: slot]
        }
    }

    /// ``network`` of the pair at `state`.
    public static func network(_ state: UnsafePointer<PairState>) -> NetworkStatus {
        // The fields, not `network`: reading the computed property copied the state here too.
        NetworkStatus.seen(engine: state.pointee.engineNetwork, host: state.pointee.hostNetwork)
    }
}
