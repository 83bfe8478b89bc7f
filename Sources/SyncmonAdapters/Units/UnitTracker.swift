import SyncmonCore

/// The mapping of SPEC §10.3 as a pure state machine: unit property snapshots and times in,
/// `UnitAction`s out. The owner reads systemd (sd-bus) and performs the actions on its pair.
///
/// Learned from systemd 252: a crash loop never reaches `failed` — at each restart systemd resets
/// `Result` and `ExecMainStatus` and only `NRestarts` grows, and `auto-restart` lasts ~100 ms — so
/// the failure is taken on entering `auto-restart` and kept until the service has stayed `active`
/// for `recoveryTime`; a stop is judged by the stop job, not by the exit status (a service that
/// exits 1 on SIGTERM still reads `stopped`).
public struct UnitTracker: Sendable {
    /// How long a restarted service must stay `active` before its failure is over.
    public static let defaultRecoveryTime = TimeSpan.seconds(Int64(60))
    /// How long a service stays `failed` before it is down: systemd 252 passes a crashing service
    /// through `failed` for a moment before `auto-restart` (seen in its PropertiesChanged signals),
    /// so `failed` is only final when no restart follows.
    public static let downGrace = TimeSpan.seconds(Int64(1))

    /// What the pair shows now, so repeated snapshots in one state repeat no action.
    public enum Liveness: Sendable, Equatable {
        case unknown
        case notLoaded
        case up
        case stopped
        case down
    }

    public private(set) var liveness: Liveness = .unknown
    /// The failure outstanding, kept across restarts.
    public private(set) var failure: UnitFailure? = nil
    public var recoveryTime: TimeSpan
    private var previous: UnitSnapshot? = nil
    /// Since when the service has been `active` without a new failure.
    private var activeSince: Timestamp? = nil
    /// A stop job was seen since the service last started: its ending is a stop, whatever its status.
    private var stopRequested = false
    /// The start of the oneshot run in progress.
    private var cycleStart: Timestamp? = nil
    /// A `failed` seen, and since when: down once `downGrace` passed without a restart.
    private var pendingDown: Timestamp? = nil

    public init(recoveryTime: TimeSpan = UnitTracker.defaultRecoveryTime) {
        self.recoveryTime = recoveryTime
    }

    /// The actions for `snapshot`, observed at `now`.
    public mutating func observe(_ snapshot: UnitSnapshot, at now: Timestamp) -> [UnitAction] {
        defer { self.previous = snapshot }
        guard snapshot.loadState == "loaded" else {
            guard self.liveness != .notLoaded else { return [] }
            self.liveness = .notLoaded
            return [.notLoaded(loadState: snapshot.loadState)]
        }
        // Loaded at last: from here on as at a first look (a unit never seen running is stopped).
        let appeared: [UnitAction] = self.liveness == .notLoaded ? [.loaded] : []
        if !appeared.isEmpty { self.liveness = .unknown }
        return appeared + self.observeLoaded(snapshot, at: now)
    }

    /// The actions for a snapshot of a loaded unit.
    private mutating func observeLoaded(_ snapshot: UnitSnapshot, at now: Timestamp) -> [UnitAction] {
        // A job while deactivating is a stop (or the stop half of a restart): systemd 252 runs the
        // stop of a quick service within one signal, so the job's own type may be gone when read.
        let stopJob = snapshot.jobType == "stop" || (snapshot.activeState == "deactivating" && snapshot.jobType != nil)
        defer { if stopJob { self.stopRequested = true } }
        if snapshot.isOneshot { return self.oneshot(snapshot, at: now) }
        var actions: [UnitAction] = []
        if let previous = self.previous, previous.loadState == "loaded", snapshot.restarts > previous.restarts {
            actions.append(.restarted(count: Int(snapshot.restarts - previous.restarts)))
            // Started mid-loop: only NRestarts grew, the failure's own status is already reset.
            if self.failure == nil { self.fail(code: "restarted", at: now, into: &actions, down: false) }
            self.activeSince = nil
        }
        if snapshot.activeState != "failed" { self.pendingDown = nil }
        switch snapshot.activeState {
        case "activating" where snapshot.subState == "auto-restart":
            self.fail(code: snapshot.failureCode ?? "restarted", at: now, into: &actions, down: false)
            self.activeSince = nil
        case "active", "reloading", "activating":
            if self.liveness != .up {
                self.stopRequested = false
                self.liveness = .up
                actions.append(.up)
            }
            if snapshot.activeState == "active", self.activeSince == nil { self.activeSince = now }
        case "failed" where !(self.stopRequested || stopJob):
            // Failing at once (never ok between crashes); down when no restart follows (tick).
            self.fail(code: snapshot.failureCode ?? "failed", at: now, into: &actions, down: false)
            if self.pendingDown == nil { self.pendingDown = now }
            self.activeSince = nil
        case "inactive" where snapshot.jobType != nil && !(self.stopRequested || stopJob):
            // On the way from auto-restart to the restart job's start: neither stopped nor down.
            break
        case "failed", "inactive":
            // Stopped by request (any status), a clean exit, or found inactive at the first look.
            if self.liveness != .stopped {
                self.liveness = .stopped
                self.failure = nil
                actions.append(.stopped)
            }
            self.activeSince = nil
        default:
            break  // deactivating: the outcome comes with the next state.
        }
        return actions
    }

    /// Time passing: a service active for `recoveryTime` since its last failure has recovered.
    public mutating func tick(at now: Timestamp) -> [UnitAction] {
        if let since = self.pendingDown, now.since(since) >= Self.downGrace, let failure = self.failure {
            self.pendingDown = nil
            self.liveness = .down
            return [.down(failure)]
        }
        guard self.failure != nil, self.liveness == .up, let since = self.activeSince,
            now.since(since) >= self.recoveryTime
        else { return [] }
        self.failure = nil
        return [.recovered]
    }

    /// When `tick` next has something to do without a new snapshot: a `failed` service's grace
    /// ends, or a restarted service has been active for `recoveryTime`; `nil` when nothing waits
    /// on time (a service that stays down needs no clock). The owner sleeps until then.
    public func nextTick() -> Timestamp? {
        var next: Timestamp? = nil
        if let since = self.pendingDown, self.failure != nil { next = since.adding(Self.downGrace) }
        if self.failure != nil, self.liveness == .up, let since = self.activeSince {
            let recovery = since.adding(self.recoveryTime)
            next = next.map { min($0, recovery) } ?? recovery
        }
        return next
    }

    /// Records a failure: the first code stays (the loop's first crash says why) while it is outstanding.
    private mutating func fail(code: String, at now: Timestamp, into actions: inout [UnitAction], down: Bool) {
        let failure =
            self.failure.map { UnitFailure(code: $0.code == "restarted" ? code : $0.code, since: $0.since) }
            ?? UnitFailure(code: code, since: now)
        let changed = failure != self.failure || (down ? self.liveness != .down : self.liveness != .up)
        self.failure = failure
        guard changed else { return }
        if down {
            self.liveness = .down
            actions.append(.down(failure))
        } else {
            self.liveness = .up
            actions.append(.failing(failure))
        }
    }

    /// A oneshot service: each activation is one cycle; the timer's state never makes it stopped or down.
    private mutating func oneshot(_ snapshot: UnitSnapshot, at now: Timestamp) -> [UnitAction] {
        var actions: [UnitAction] = []
        if self.liveness != .up {
            self.liveness = .up
            actions.append(.up)
        }
        let running = snapshot.activeState == "activating" || (snapshot.activeState == "active" && snapshot.subState != "exited")
        if running {
            if self.cycleStart == nil {
                let started = snapshot.mainStarted ?? now
                self.cycleStart = started
                actions.append(.cycleStarted(at: started))
            }
            return actions
        }
        let ended = snapshot.mainExited ?? now
        let failure = snapshot.activeState == "failed" ? UnitFailure(code: snapshot.failureCode ?? "failed", since: ended) : nil
        if let started = self.cycleStart {
            self.cycleStart = nil
            actions.append(.cycleEnded(started: started, ended: ended, failure: failure))
        } else if self.previous == nil, let lastStart = snapshot.mainStarted {
            // The first look: the last run (its timestamps and Result) is the last cycle.
            actions.append(.cycleStarted(at: lastStart))
            actions.append(.cycleEnded(started: lastStart, ended: ended, failure: failure))
        }
        self.stopRequested = false
        return actions
    }
}
