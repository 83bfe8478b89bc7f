/// How syncmon treats an error (SPEC §1.4).
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
    /// syncmon's own code for a failed `containerEvent` that carried no error (SPEC §9.7).
    case unknown

    public var description: String {
        switch self {
        case .internalError: "internalError"
        case .partialFailure: "partialFailure"
        case .networkUnavailable: "networkUnavailable"
        case .networkFailure: "networkFailure"
        case .badContainer: "badContainer"
        case .serviceUnavailable: "serviceUnavailable"
        case .requestRateLimited: "requestRateLimited"
        case .missingEntitlement: "missingEntitlement"
        case .notAuthenticated: "notAuthenticated"
        case .permissionFailure: "permissionFailure"
        case .unknownItem: "unknownItem"
        case .invalidArguments: "invalidArguments"
        case .resultsTruncated: "resultsTruncated"
        case .serverRecordChanged: "serverRecordChanged"
        case .serverRejectedRequest: "serverRejectedRequest"
        case .assetFileNotFound: "assetFileNotFound"
        case .assetFileModified: "assetFileModified"
        case .incompatibleVersion: "incompatibleVersion"
        case .constraintViolation: "constraintViolation"
        case .operationCancelled: "operationCancelled"
        case .changeTokenExpired: "changeTokenExpired"
        case .batchRequestFailed: "batchRequestFailed"
        case .zoneBusy: "zoneBusy"
        case .badDatabase: "badDatabase"
        case .quotaExceeded: "quotaExceeded"
        case .zoneNotFound: "zoneNotFound"
        case .limitExceeded: "limitExceeded"
        case .userDeletedZone: "userDeletedZone"
        case .tooManyParticipants: "tooManyParticipants"
        case .alreadyShared: "alreadyShared"
        case .referenceViolation: "referenceViolation"
        case .managedAccountRestricted: "managedAccountRestricted"
        case .participantMayNeedVerification: "participantMayNeedVerification"
        case .serverResponseLost: "serverResponseLost"
        case .assetNotAvailable: "assetNotAvailable"
        case .accountTemporarilyUnavailable: "accountTemporarilyUnavailable"
        case .participantAlreadyInvited: "participantAlreadyInvited"
        case .unknown: "unknown"
        }
    }

    /// The class of this code (SPEC §1.4).
    public var errorClass: ErrorClass {
        switch self {
        case .notAuthenticated, .accountTemporarilyUnavailable, .networkFailure, .networkUnavailable,
            .requestRateLimited, .serviceUnavailable, .zoneBusy:
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
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The code as sent (the first 64 bytes of it).
    public let name: InlineName
    /// The known code, `nil` for codes grouped as `other`.
    public let known: KnownErrorCode?

    public init(name: InlineName) {
        self.name = name
        self.known = KnownErrorCode(name)
    }

    public init(_ known: KnownErrorCode) {
        self.name = InlineName(known.description)!
        self.known = known
    }

    /// Unknown codes are actionable: syncmon cannot assume anyone retries them.
    public var errorClass: ErrorClass { self.known?.errorClass ?? .actionable }

    /// The bounded metric label: the known name, else `other`.
    public var label: ErrorCodeLabel { ErrorCodeLabel(self.known) }

    public var description: String { self.name.description }
}

extension ErrorCode: Codable {
    /// Persisted as the code's spelling.
    public init(from decoder: any Decoder) throws {
        self.init(name: try InlineName(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try self.name.encode(to: encoder)
    }
}

/// The bounded `code` metric label: a known code or `other`, as a small integer.
public struct ErrorCodeLabel: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
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
