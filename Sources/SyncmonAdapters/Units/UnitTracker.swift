import SyncmonCore

/// The mapping of docs/systemd-units.md as a pure state machine: unit property snapshots and
/// times in, `UnitAction`s out. The owner reads systemd (sd-bus) and performs the actions on its pair.
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

    /// What the pair shows now, with what each state needs to decide the next: repeated
    /// snapshots in one state repeat no action.
    public enum State: Sendable, Equatable {
        /// Nothing seen yet, or loaded again after systemd did not know the unit: the next
        /// snapshot decides, as at a first look.
        case unknown
        case notLoaded
        /// Running, starting or being restarted by systemd; a oneshot service always.
        case up(Up)
        /// Stopped by request, a clean exit, or inactive and never seen running.
        case stopped
        /// Failed, and no restart followed within `downGrace`; the failure stays outstanding.
        case down(UnitFailure)
    }

    /// What an up service carries.
    public struct Up: Sendable, Equatable {
        /// The failure outstanding, kept across restarts.
        public var failure: UnitFailure? = nil
        /// Since when the service has been `active` without a new failure.
        var activeSince: Timestamp? = nil
        /// A `failed` seen, and since when: down once `downGrace` passed without a restart.
        var pendingDown: Timestamp? = nil
        /// The start of the oneshot run in progress.
        var cycleStart: Timestamp? = nil
        /// Whether the service was seen running in this up period, so that the pair is tied to
        /// the source: a first look that finds it failed makes it up (systemd may restart it)
        /// without that, and a start within the grace must still tie it, or a later failure
        /// would never be `engine_down`.
        var seenRunning = false
    }

    public private(set) var state: State = .unknown
    public var recoveryTime: TimeSpan
    /// The last snapshot, for what grew since (`NRestarts`) and whether this is the first look.
    private var previous: UnitSnapshot? = nil
    /// A stop job was seen since the service last started: its ending is a stop, whatever its
    /// status. Kept whatever the state, since the job and the ending come in separate signals.
    private var stopRequested = false

    public init(recoveryTime: TimeSpan = UnitTracker.defaultRecoveryTime) {
        self.recoveryTime = recoveryTime
    }

    /// The failure outstanding: while up (crashing or recovering) or down.
    public var failure: UnitFailure? {
        switch self.state {
        case .up(let up): up.failure
        case .down(let failure): failure
        case .unknown, .notLoaded, .stopped: nil
        }
    }

    /// Whether the service is up (a oneshot service always is).
    public var isUp: Bool {
        if case .up = self.state { return true }
        return false
    }

    /// The actions for `snapshot`, observed at `now`.
    public mutating func observe(_ snapshot: UnitSnapshot, at now: Timestamp) -> [UnitAction] {
        defer { self.previous = snapshot }
        guard snapshot.loadState == .loaded else {
            guard self.state != .notLoaded else { return [] }
            self.state = .notLoaded
            return [.notLoaded(loadState: snapshot.loadState)]
        }
        // Loaded at last: from here on as at a first look (a unit never seen running is stopped).
        let appeared: [UnitAction] = self.state == .notLoaded ? [.loaded] : []
        if !appeared.isEmpty { self.state = .unknown }
        return appeared + self.observeLoaded(snapshot, at: now)
    }

    /// The actions for a snapshot of a loaded unit.
    private mutating func observeLoaded(_ snapshot: UnitSnapshot, at now: Timestamp) -> [UnitAction] {
        // A job while deactivating is a stop (or the stop half of a restart): systemd 252 runs the
        // stop of a quick service within one signal, so the job's own type may be gone when read.
        let stopJob = snapshot.jobType == "stop" || (snapshot.activeState == .deactivating && snapshot.jobType != nil)
        defer { if stopJob { self.stopRequested = true } }
        if snapshot.isOneshot { return self.oneshot(snapshot, at: now) }
        var actions: [UnitAction] = []
        if let previous = self.previous, previous.loadState == .loaded, snapshot.restarts > previous.restarts {
            actions.append(.restarted(count: Int(snapshot.restarts - previous.restarts)))
            // Started mid-loop: only NRestarts grew, the failure's own status is already reset.
            if self.failure == nil { self.fail(code: "restarted", at: now, into: &actions) }
            self.updateUp { $0.activeSince = nil }
        }
        if snapshot.activeState != .failed { self.updateUp { $0.pendingDown = nil } }
        switch snapshot.activeState {
        case .activating where snapshot.subState == .autoRestart:
            self.fail(code: snapshot.failureCode ?? "restarted", at: now, into: &actions)
            self.updateUp { $0.activeSince = nil }
        case .active, .reloading, .activating:
            if !self.isUp {
                self.stopRequested = false
                self.state = .up(Up(failure: self.failure, seenRunning: true))
                actions.append(.up)
            } else if case .up(let up) = self.state, !up.seenRunning, snapshot.activeState == .active {
                self.updateUp { $0.seenRunning = true }
                actions.append(.running)
            }
            if snapshot.activeState == .active { self.updateUp { $0.activeSince = $0.activeSince ?? now } }
        case .failed where !(self.stopRequested || stopJob):
            // Failing at once (never ok between crashes); down when no restart follows (tick).
            self.fail(code: snapshot.failureCode ?? "failed", at: now, into: &actions)
            self.updateUp {
                $0.pendingDown = $0.pendingDown ?? now
                $0.activeSince = nil
            }
        case .inactive where snapshot.jobType != nil && !(self.stopRequested || stopJob):
            // On the way from auto-restart to the restart job's start: neither stopped nor down.
            break
        case .failed, .inactive:
            // Stopped by request (any status), a clean exit, or found inactive at the first look.
            if self.state != .stopped {
                self.state = .stopped
                actions.append(.stopped)
            }
        case .deactivating, .maintenance, .other:
            break  // The outcome comes with the next state.
        }
        return actions
    }

    /// Time passing: a `failed` service with no restart is down; a service active for
    /// `recoveryTime` since its last failure has recovered.
    public mutating func tick(at now: Timestamp) -> [UnitAction] {
        guard case .up(var up) = self.state, let failure = up.failure else { return [] }
        if let since = up.pendingDown, now.since(since) >= Self.downGrace {
            self.state = .down(failure)
            return [.down(failure)]
        }
        guard let since = up.activeSince, now.since(since) >= self.recoveryTime else { return [] }
        up.failure = nil
        self.state = .up(up)
        return [.recovered]
    }

    /// When `tick` next has something to do without a new snapshot: a `failed` service's grace
    /// ends, or a restarted service has been active for `recoveryTime`; `nil` when nothing waits
    /// on time (a service that stays down needs no clock). The owner sleeps until then.
    public func nextTick() -> Timestamp? {
        guard case .up(let up) = self.state, up.failure != nil else { return nil }
        let deadlines = [up.pendingDown?.adding(Self.downGrace), up.activeSince?.adding(self.recoveryTime)]
        return deadlines.compactMap { $0 }.min()
    }

    /// Changes what an up service carries; nothing in any other state.
    private mutating func updateUp(_ change: (inout Up) -> Void) {
        guard case .up(var up) = self.state else { return }
        change(&up)
        self.state = .up(up)
    }

    /// Records a failure, which makes the service up (systemd restarts it, or `tick` finds it
    /// down later): the first code stays (the loop's first crash says why) while it is outstanding.
    private mutating func fail(code: String, at now: Timestamp, into actions: inout [UnitAction]) {
        let outstanding = self.failure
        // "restarted" and "failed" say only that it failed, not why: a later snapshot that knows
        // (systemd sends ActiveState and the service's Result in two signals, in either order,
        // and a first look may find a failed unit whose Result was already reset) gives the code.
        let failure =
            outstanding.map { UnitFailure(code: $0.code == "restarted" || $0.code == "failed" ? code : $0.code, since: $0.since) }
            ?? UnitFailure(code: code, since: now)
        let changed = failure != outstanding || !self.isUp
        var up = Up()
        if case .up(let current) = self.state { up = current }
        up.failure = failure
        self.state = .up(up)
        if changed { actions.append(.failing(failure)) }
    }

    /// A oneshot service: each activation is one cycle; the timer's state never makes it stopped or down.
    private mutating func oneshot(_ snapshot: UnitSnapshot, at now: Timestamp) -> [UnitAction] {
        var actions: [UnitAction] = []
        if !self.isUp {
            self.state = .up(Up(failure: self.failure))
            actions.append(.up)
        }
        let running = snapshot.activeState == .activating || (snapshot.activeState == .active && snapshot.subState != .exited)
        if running {
            guard case .up(let up) = self.state, up.cycleStart == nil else { return actions }
            let started = snapshot.mainStarted ?? now
            self.updateUp { $0.cycleStart = started }
            actions.append(.cycleStarted(at: started))
            return actions
        }
        let ended = snapshot.mainExited ?? now
        let failure = snapshot.activeState == .failed ? UnitFailure(code: snapshot.failureCode ?? "failed", since: ended) : nil
        if case .up(let up) = self.state, let started = up.cycleStart {
            self.updateUp { $0.cycleStart = nil }
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
