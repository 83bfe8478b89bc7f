import SyncmonCore

/// What a tool's output says about the run: it moved, or it hit a problem.
public enum ToolReport: Equatable, Sendable {
    /// Counters grew: bytes moved, files done, items checked or deleted.
    case progress(ProgressDelta)
    /// An error or a retry the tool reported while it ran.
    case problem(ToolProblem)

    /// The core event for this report in a run of `phase` (import or export): progress is a
    /// `sent…` batch for an export and a `fetched…` batch for an import, with files done as
    /// records saved (or modified) and deletions as deleted; a problem is an `error` event of
    /// that phase, which counts toward the run without deciding its outcome.
    public func payload(for phase: Phase) -> EventPayload {
        switch self {
        case .progress(let delta):
            switch phase {
            case .import:
                return .fetchedRecordZoneChanges(modifications: delta.files, deletions: delta.deletes)
            case .export, .setup:
                return .sentRecordZoneChanges(savedRecords: delta.files, deletedRecords: delta.deletes, failures: FailureDigest())
            }
        case .problem(let problem):
            return .error(phase: phase, error: problem.error)
        }
    }
}

/// How much a tool's counters grew since its previous report; all zero is not progress.
public struct ProgressDelta: Equatable, Sendable {
    public var bytes: Int64 = 0
    /// Files transferred (saved) since the previous report.
    public var files: Int64 = 0
    /// Files or objects checked (compared, scanned) since the previous report.
    public var checks: Int64 = 0
    /// Files deleted since the previous report.
    public var deletes: Int64 = 0

    public init(bytes: Int64 = 0, files: Int64 = 0, checks: Int64 = 0, deletes: Int64 = 0) {
        self.bytes = bytes
        self.files = files
        self.checks = checks
        self.deletes = deletes
    }

    /// Something moved.
    public var isProgress: Bool { self.bytes > 0 || self.files > 0 || self.checks > 0 || self.deletes > 0 }

    /// Adds another delta: reports waiting to be sent are merged into one event.
    public mutating func add(_ other: ProgressDelta) {
        self.bytes = self.bytes.addingSaturated(other.bytes)
        self.files = self.files.addingSaturated(other.files)
        self.checks = self.checks.addingSaturated(other.checks)
        self.deletes = self.deletes.addingSaturated(other.deletes)
    }
}

/// An error or retry a tool reported, with the code syncmon classes it by.
public struct ToolProblem: Equatable, Sendable {
    public var code: KnownErrorCode
    /// The tool's own words, for people: the failure's message (cut and escaped on the way),
    /// never a label.
    public var message: String?
    /// How long the tool said it waits before retrying, when it said so.
    public var retryAfter: TimeSpan?

    public init(_ code: KnownErrorCode, message: String? = nil, retryAfter: TimeSpan? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The core error: the code, the retry-after and the message as the daemon keeps it.
    public var error: SyncError {
        SyncError(code: ErrorCode(self.code), retryAfter: self.retryAfter, message: self.message.flatMap(ErrorMessage.clean))
    }
}
