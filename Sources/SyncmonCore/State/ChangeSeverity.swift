/// How much a change of a pair's verdict matters to whoever reads the log, decided here on the
/// enums: renaming or adding a `Summary` case is a compile error in `Summary.severity`, never an
/// error quietly logged at info. The daemon maps it to journal priorities
/// (docs/operations.md#logs-and-journald: err, warning, notice, info).
public enum ChangeSeverity: Sendable, Hashable, CaseIterable {
    /// Sync is failing: `error`, `engine_down`.
    case failure
    /// Sync is held up and someone should look: `stalled`, `no_network`, `account_not_available`.
    case warning
    /// Back from a failure or a warning.
    case recovery
    /// A healthy engine's ordinary moves.
    case routine

    /// A stall raised is held-up sync.
    public static let stallRaised = ChangeSeverity.warning
    /// A stall cleared is a recovery.
    public static let stallCleared = ChangeSeverity.recovery

    /// A change of summary to `summary` from `previous` (`nil` for a pair's first verdict): the
    /// new summary's own severity, or a recovery when it leaves a failure or a warning.
    public static func ofChange(to summary: Summary, from previous: Summary?) -> ChangeSeverity {
        let severity = summary.changeSeverity
        guard severity == .routine, let previous, previous.changeSeverity != .routine else { return severity }
        return .recovery
    }
}

extension Summary {
    /// What being in this summary means for the log (not the Nagios `severity`, where a stall is
    /// critical): failures and warnings stand out, the rest is routine.
    public var changeSeverity: ChangeSeverity {
        switch self {
        case .error, .engineDown: .failure
        case .stalled, .noNetwork, .accountNotAvailable: .warning
        case .stopped, .throttled, .retrying, .notStarted, .inProgress, .succeeded, .unknown: .routine
        }
    }
}
