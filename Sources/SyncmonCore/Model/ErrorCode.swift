/// How syncmon treats an error (docs/protocol.md#error-classes).
public enum ErrorClass: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The engine retries by itself (CKSyncEngine's automatically handled list).
    case transient
    /// `serverRecordChanged`: normal multi-device life, resolved by the app; counted only.
    case conflict
    /// Everything else: a person or the app has to act.
    case actionable

    public var description: String {
        switch self {
        case .transient: "transient"
        case .conflict: "conflict"
        case .actionable: "actionable"
        }
    }
}

/// The CKError case names syncmon knows, which are the bounded values of the `code` metric label.
///
/// Any other code is allowed on the wire; it is labelled `other` in metrics and keeps its
/// spelling in status and logs.
public enum KnownErrorCode: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case internalError, partialFailure, networkUnavailable, networkFailure, badContainer
    case serviceUnavailable, requestRateLimited, missingEntitlement, notAuthenticated, permissionFailure
    case unknownItem, invalidArguments, resultsTruncated, serverRecordChanged, serverRejectedRequest
    case assetFileNotFound, assetFileModified, incompatibleVersion, constraintViolation, operationCancelled
    case changeTokenExpired, batchRequestFailed, zoneBusy, badDatabase, quotaExceeded
    case zoneNotFound, limitExceeded, userDeletedZone, tooManyParticipants, alreadyShared
    case referenceViolation, managedAccountRestricted, participantMayNeedVerification, serverResponseLost
    case assetNotAvailable, accountTemporarilyUnavailable, participantAlreadyInvited
    /// syncmon's own code for a failed `containerEvent` that carried no error (docs/protocol.md#containerevent).
    case unknown

    // The codes `syncmon wrap` reports for rclone, restic and rsync (docs/wrap.md): exit
    // statuses by each tool's documented table, and what the tools report while they run.
    // Appended after `unknown`, so that the codes above keep their numbers.

    /// rsync 1: syntax or usage error.
    case usageError
    /// rclone 2, and rclone 1 (its exit status for any error it does not sort): an error not otherwise categorised.
    case uncategorizedError
    /// rclone 3: directory not found.
    case directoryNotFound
    /// rclone 4: file not found.
    case fileNotFound
    /// rclone 5: a temporary error, one that more retries might fix.
    case temporaryError
    /// rclone 6: less serious errors (like 461 errors from Dropbox) that retrying does not fix.
    case noRetryError
    /// rclone 7: a fatal error that retries won't fix (like an account suspended).
    case fatalError
    /// rclone 8: the transfer limit (`--max-transfer`) was reached.
    case transferLimitExceeded
    /// rclone 9: no files were transferred (only with `--error-on-no-transfer`).
    case noFilesTransferred
    /// restic 1: a fatal error, no snapshot created (repository unreachable, wrong password, locked).
    case fatal
    /// restic 3: some source files could not be read; the snapshot is incomplete.
    case incompleteSnapshot
    /// rsync 2: protocol incompatibility.
    case protocolIncompatibility
    /// rsync 3: errors selecting input/output files or directories.
    case fileSelectionError
    /// rsync 4: requested action not supported.
    case unsupportedAction
    /// rsync 5: error starting the client-server protocol (e.g. an unknown daemon module).
    case clientServerProtocolError
    /// rsync 6: the daemon cannot append to its log file.
    case logFileError
    /// rsync 10: error in socket I/O.
    case socketIOError
    /// rsync 11: error in file I/O.
    case fileIOError
    /// rsync 12: error in the rsync protocol data stream (usually the other side died).
    case protocolStreamError
    /// rsync 13: errors with program diagnostics.
    case diagnosticsError
    /// rsync 14: error in IPC code.
    case ipcError
    /// rsync 15: a sibling process crashed.
    case siblingCrashed
    /// rsync 16: a sibling process terminated abnormally.
    case siblingTerminated
    /// rsync 19: received SIGUSR1.
    case receivedSIGUSR1
    /// rsync 20: received SIGINT, SIGTERM or SIGHUP; restic 130: interrupted by SIGINT.
    case interrupted
    /// rsync 21: waitpid() failed.
    case waitChildFailed
    /// rsync 22: error allocating core memory buffers.
    case outOfMemory
    /// rsync 23: partial transfer due to errors.
    case partialTransfer
    /// rsync 25: the `--max-delete` limit stopped deletions.
    case deleteLimitReached
    /// rsync 30: timeout in data send/receive.
    case dataTimeout
    /// rsync 35: timeout waiting for the daemon connection.
    case connectionTimeout
    /// rsync 124: the remote shell failed.
    case remoteShellFailed
    /// rsync 125: the remote shell was killed.
    case remoteShellKilled
    /// rsync 126: the remote command could not be run.
    case remoteCommandNotRunnable
    /// rsync 127: the remote command was not found.
    case remoteCommandNotFound
    /// rsync 255: ssh failed (connection refused, timed out, reset).
    case sshError
    /// A file or directory the tool could not copy, read or write while the run went on
    /// (the run's exit status decides the outcome).
    case itemFailed
    /// rclone retries the whole run: one attempt failed (`Attempt 1/3 failed`).
    case attemptFailed
    /// restic retries a repository operation (`… returned error, retrying after …`).
    case backendRetry

    /// The code as engines spell it: the case's name.
    public var description: String { Self.names[Int(self.rawValue)] }

    /// Every case's name, in declaration order (the raw values count up from 0): a new case
    /// goes at the end of both. ErrorClassTests checks the table's length and spot-checks names
    /// across it, so a name left out shifts the rest and fails.
    private static let names: [String] = [
        "internalError", "partialFailure", "networkUnavailable", "networkFailure", "badContainer", "serviceUnavailable",
        "requestRateLimited", "missingEntitlement", "notAuthenticated", "permissionFailure", "unknownItem", "invalidArguments",
        "resultsTruncated", "serverRecordChanged", "serverRejectedRequest", "assetFileNotFound", "assetFileModified", "incompatibleVersion",
        "constraintViolation", "operationCancelled", "changeTokenExpired", "batchRequestFailed", "zoneBusy", "badDatabase", "quotaExceeded",
        "zoneNotFound", "limitExceeded", "userDeletedZone", "tooManyParticipants", "alreadyShared", "referenceViolation",
        "managedAccountRestricted", "participantMayNeedVerification", "serverResponseLost", "assetNotAvailable",
        "accountTemporarilyUnavailable", "participantAlreadyInvited", "unknown", "usageError", "uncategorizedError", "directoryNotFound",
        "fileNotFound", "temporaryError", "noRetryError", "fatalError", "transferLimitExceeded", "noFilesTransferred", "fatal",
        "incompleteSnapshot", "protocolIncompatibility", "fileSelectionError", "unsupportedAction", "clientServerProtocolError",
        "logFileError", "socketIOError", "fileIOError", "protocolStreamError", "diagnosticsError", "ipcError", "siblingCrashed",
        "siblingTerminated", "receivedSIGUSR1", "interrupted", "waitChildFailed", "outOfMemory", "partialTransfer", "deleteLimitReached",
        "dataTimeout", "connectionTimeout", "remoteShellFailed", "remoteShellKilled", "remoteCommandNotRunnable", "remoteCommandNotFound",
        "sshError", "itemFailed", "attemptFailed", "backendRetry",
    ]

    /// The class of this code (docs/protocol.md, "Error classes"; the `wrap` codes: docs/wrap.md).
    public var errorClass: ErrorClass {
        switch self {
        case .notAuthenticated, .accountTemporarilyUnavailable, .networkFailure, .networkUnavailable,
            .requestRateLimited, .serviceUnavailable, .zoneBusy:
            .transient
        // What the next run or the tool's own retry may well fix: the network, the other side,
        // a timeout. Everything else a tool reports needs a person.
        case .temporaryError, .socketIOError, .protocolStreamError, .dataTimeout, .connectionTimeout, .sshError,
            .attemptFailed, .backendRetry:
            .transient
        case .serverRecordChanged:
            .conflict
        default:
            .actionable
        }
    }

    private static let byName: [InlineName: KnownErrorCode] = {
        var table: [InlineName: KnownErrorCode] = [:]
        for code in KnownErrorCode.allCases { table[InlineName(code.description)!] = code }
        return table
    }()

    /// Looks a wire code up; `nil` for codes syncmon does not know.
    public init?(_ name: InlineName) {
        guard let code = Self.byName[name] else { return nil }
        self = code
    }
}

/// An error code as sent by an engine, with its known meaning when there is one.
///
/// Known codes, nearly all of them, are one byte; an unknown code keeps its spelling as a
/// `String` (inline up to 15 bytes, out of line beyond). Events, failure digests and pair
/// states hold several of these and are copied at every hand-off, so the spelling is not stored
/// inline as a 64-byte `InlineName` (which made an `Event` 472 bytes).
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// A known code, or the spelling of one syncmon does not know.
    private enum Storage: Hashable, Sendable {
        case known(KnownErrorCode)
        case unknown(String)
    }

    private let storage: Storage

    public init(name: InlineName) {
        if let known = KnownErrorCode(name) {
            self.storage = .known(known)
        } else {
            self.storage = .unknown(name.description)
        }
    }

    public init(_ known: KnownErrorCode) {
        self.storage = .known(known)
    }

    /// The code as sent (the first 64 bytes of it).
    public var name: InlineName {
        switch self.storage {
        case .known(let known): InlineName(known.description)!
        case .unknown(let spelling):
            InlineName(spelling) ?? InlineName(String(decoding: spelling.utf8.prefix(InlineName.capacity), as: UTF8.self)) ?? InlineName()
        }
    }

    /// The known code, `nil` for codes grouped as `other`.
    public var known: KnownErrorCode? {
        if case .known(let known) = self.storage { return known }
        return nil
    }

    /// Unknown codes are actionable: syncmon cannot assume anyone retries them.
    public var errorClass: ErrorClass { self.known?.errorClass ?? .actionable }

    /// The bounded metric label: the known name, else `other`.
    public var label: ErrorCodeLabel { ErrorCodeLabel(self.known) }

    public var description: String {
        switch self.storage {
        case .known(let known): known.description
        case .unknown(let spelling): spelling
        }
    }
}

extension ErrorCode: Codable {
    /// Persisted as the code's spelling.
    public init(from decoder: any Decoder) throws {
        self.init(name: try InlineName(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.description)
    }
}

/// The bounded `code` metric label: a known code or `other`, as a small integer.
public struct ErrorCodeLabel: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// `KnownErrorCode.rawValue`, or `KnownErrorCode.allCases.count` for `other`.
    public let index: UInt8

    public static let other = ErrorCodeLabel(index: UInt8(KnownErrorCode.allCases.count))
    /// Every label value, known codes first.
    public static let all: [ErrorCodeLabel] = (0...KnownErrorCode.allCases.count).map { ErrorCodeLabel(index: UInt8($0)) }

    init(index: UInt8) {
        self.index = index
    }

    public init(_ known: KnownErrorCode?) {
        self.index = known?.rawValue ?? Self.other.index
    }

    public var known: KnownErrorCode? { KnownErrorCode(rawValue: self.index) }

    public var description: String { self.known?.description ?? "other" }

    public static func < (lhs: ErrorCodeLabel, rhs: ErrorCodeLabel) -> Bool { lhs.index < rhs.index }
}

extension ErrorCodeLabel: Codable {
    /// Known codes before the `wrap` codes were added; `other` was this index then.
    package static let legacyOtherIndex: UInt8 = 38

    private enum CodingKeys: String, CodingKey {
        case index
    }

    /// Persisted as the label's name, so that adding codes never changes what a saved count
    /// means. State written before that holds `{"index": N}`: the codes below the old `other`
    /// kept their numbers, and the old `other` (and anything above it) is `other`.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer(), let name = try? container.decode(String.self) {
            self.init(InlineName(name).flatMap { KnownErrorCode($0) })
            return
        }
        let index = try decoder.container(keyedBy: CodingKeys.self).decode(UInt8.self, forKey: .index)
        self.init(index < Self.legacyOtherIndex ? KnownErrorCode(rawValue: index) : nil)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.description)
    }
}
