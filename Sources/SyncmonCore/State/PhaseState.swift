/// The state of one phase, as CloudKitSyncMonitor's `SyncState` (docs/protocol.md#phases).
public enum PhaseState: Equatable, Sendable, Codable {
    case notStarted
    case inProgress(since: Timestamp)
    case succeeded(started: Timestamp, ended: Timestamp)
    case failed(started: Timestamp, ended: Timestamp, error: PhaseError)

    /// The bounded name used in metrics and status JSON.
    public var name: PhaseStateName {
        switch self {
        case .notStarted: .notStarted
        case .inProgress: .inProgress
        case .succeeded: .succeeded
        case .failed: .failed
        }
    }

    /// The error of a failed phase.
    public var error: PhaseError? {
        if case .failed(_, _, let error) = self { return error }
        return nil
    }

    public var isInProgress: Bool {
        if case .inProgress = self { return true }
        return false
    }
}

/// The `state` label values of `syncmon_phase_state`.
public enum PhaseStateName: Int, CaseIterable, Sendable, CustomStringConvertible {
    case notStarted, inProgress, succeeded, failed

    public var description: String {
        switch self {
        case .notStarted: "not_started"
        case .inProgress: "in_progress"
        case .succeeded: "succeeded"
        case .failed: "failed"
        }
    }
}

/// Why a phase failed: the error it shows and how it counts for the summary.
public struct PhaseError: Equatable, Sendable, Codable {
    public var code: ErrorCode
    /// `transient` makes the summary `retrying`; anything else makes it `error`. A conflict code
    /// that fails a `containerEvent` counts as actionable (docs/protocol.md#containerevent), so this is not always the
    /// code's own class.
    public var errorClass: ErrorClass
    /// The failure's message in the engine's own words (docs/protocol.md#phases): cut to
    /// `ErrorMessage.maximumBytes` and escaped, `nil` when the engine sent none. Shown in
    /// status JSON (`failing.error.message`), the table's detail and the journal.
    public var message: String?

    public init(code: ErrorCode, errorClass: ErrorClass, message: String? = nil) {
        self.code = code
        self.errorClass = errorClass
        self.message = message
    }
}
