/// Whether a pair's engine runs, as far as syncmon can tell (docs/protocol.md#liveness).
///
/// One value instead of loose flags: a stopped engine has no promise and no connection, a
/// down one no connection, so neither can be written.
public enum Liveness: Equatable, Sendable {
    /// Heard from and not stopped. `heartbeat` is the promised interval (down after 3 × it
    /// without an event); `connection` the push connection it is tied to (down if that closes
    /// without `engineStopped`).
    case up(heartbeat: TimeSpan?, connection: UInt64?)
    /// `engineStopped` was the latest word: intentionally stopped.
    case stopped
    /// Down until heard from again: its connection closed without `engineStopped`, or it was
    /// down when the daemon last stopped. `heartbeat` is the promise it keeps when it is heard
    /// from again without a new `engineStarted`.
    case down(heartbeat: TimeSpan?)
    /// Restored after a daemon restart while it promised heartbeats or was tied to a push
    /// connection of the daemon's previous run: down at `deadline` unless heard from first
    /// (3 × its heartbeat, else the reconnect grace, from the daemon's start).
    case restored(heartbeat: TimeSpan?, deadline: Timestamp)

    /// How long a client tied to a push connection has to reconnect after a daemon restart when
    /// it promised no heartbeat (docs/protocol.md#liveness).
    public static let reconnectGrace = TimeSpan(microseconds: 60_000_000)

    /// Up and promising nothing: a pair that only sends events (`emit`, `wrap`).
    public static let heardFrom = Liveness.up(heartbeat: nil, connection: nil)

    /// The promised heartbeat interval, whatever the state.
    public var heartbeat: TimeSpan? {
        switch self {
        case .up(let heartbeat, _), .down(let heartbeat), .restored(let heartbeat, _): heartbeat
        case .stopped: nil
        }
    }

    /// The push connection the pair is tied to, in this daemon's run.
    public var connection: UInt64? {
        if case .up(_, let connection) = self { return connection }
        return nil
    }

    /// Any event was heard (other than those that set liveness themselves): the engine runs,
    /// keeping the promise and the tie it had.
    func heard() -> Liveness {
        switch self {
        case .up: self
        case .stopped: .heardFrom
        case .down(let heartbeat), .restored(let heartbeat, _): .up(heartbeat: heartbeat, connection: nil)
        }
    }

    /// The connection it is tied to turned out to be a one-shot sender's (`syncmon emit`):
    /// the engine was never tied to it (docs/protocol.md#liveness), and keeps its promise.
    func released() -> Liveness {
        guard case .up(let heartbeat, .some) = self else { return self }
        return .up(heartbeat: heartbeat, connection: nil)
    }

    /// The tied connection closed without `engineStopped`.
    func connectionClosed() -> Liveness {
        guard case .up(let heartbeat, .some) = self else { return self }
        return .down(heartbeat: heartbeat)
    }

    /// When, with no event, the engine goes down: `nil` when only an event or a connection
    /// closing can change it.
    func downAt(lastEvent: Timestamp) -> Timestamp? {
        switch self {
        case .up(.some(let heartbeat), _): lastEvent.adding(heartbeat.multiplied(by: 3))
        case .restored(_, let deadline): deadline
        case .up(nil, _), .stopped, .down: nil
        }
    }

    /// Down at `now` (3 × the heartbeat elapsed is down, inclusive: docs/protocol.md#time).
    func isDown(at now: Timestamp, lastEvent: Timestamp) -> Bool {
        if case .down = self { return true }
        return self.downAt(lastEvent: lastEvent).map { now >= $0 } ?? false
    }

    /// The liveness a pair saved at `savedAt` (last heard at `lastEvent`) has once the daemon
    /// starts again at `start` (docs/protocol.md#liveness): stopped and down stay so; a promise
    /// or a tie to the previous run's connection gets its grace from the start; an engine that
    /// had already missed its heartbeats when the state was saved is down.
    func restarted(at start: Timestamp, savedAt: Timestamp, lastEvent: Timestamp) -> Liveness {
        switch self {
        case .stopped, .down, .up(nil, nil):
            return self
        case .up(let heartbeat, _), .restored(let heartbeat, _):
            if self.isDown(at: savedAt, lastEvent: lastEvent) { return .down(heartbeat: heartbeat) }
            let grace = heartbeat.map { $0.multiplied(by: 3) } ?? Self.reconnectGrace
            return .restored(heartbeat: heartbeat, deadline: start.adding(grace))
        }
    }
}

/// What drives a pair's setup phase (docs/protocol.md#scope): a CKSyncEngine stream's
/// `engineStarted`, or `containerEvent`s once one with `kind: setup` was seen.
public enum SetupDriver: Equatable, Sendable {
    /// `engineStarted` opens setup; none is waiting to complete.
    case engine
    /// `engineStarted` opened setup, which completes at the first available account or
    /// completed cycle, or fails on an actionable setup error.
    case engineAwaitingCompletion
    /// A `containerEvent` setup was seen: `engineStarted` no longer touches setup.
    case container
}
