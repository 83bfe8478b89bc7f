import SyncmonCore

/// A failure of a unit: the code as wrap writes it, and when it was first seen.
public struct UnitFailure: Sendable, Equatable {
    public var code: String
    public var since: Timestamp

    public init(code: String, since: Timestamp) {
        self.code = code
        self.since = since
    }
}

/// What the owner of a `unit:` source does for its pair after a snapshot or a tick (docs/systemd-units.md).
public enum UnitAction: Sendable, Equatable {
    /// The unit does not exist or is not loaded: a logged notice; the pair is `unknown`.
    case notLoaded(loadState: UnitLoadState)
    /// A unit that was not loaded is now (its file appeared, `systemctl daemon-reload`): the
    /// pair is no longer `unknown`; the actions that follow say what the unit does.
    case loaded
    /// systemd runs the service (or is bringing it back): the pair is up, no heartbeat needed.
    case up
    /// The service runs, up already with its failure outstanding (found failed or mid-loop at
    /// the first look, then started): the pair is tied to the source; the failure stays.
    case running
    /// Stopped by request, or found inactive and never seen running.
    case stopped
    /// The service failed and systemd will not restart it: `engine_down` with the failure outstanding.
    case down(UnitFailure)
    /// The service failed and systemd restarts it: up, with the failure outstanding (`error`).
    case failing(UnitFailure)
    /// The service stayed active for the recovery time: the outstanding failure is over.
    case recovered
    /// systemd restarted the service automatically this many times more (`syncmon_unit_restarts_total`).
    case restarted(count: Int)
    /// A oneshot run began.
    case cycleStarted(at: Timestamp)
    /// A oneshot run ended, failed when `failure` is set.
    case cycleEnded(started: Timestamp?, ended: Timestamp, failure: UnitFailure?)
}
