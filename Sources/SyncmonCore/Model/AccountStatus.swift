/// The account condition of a pair, from `accountStatus` and `accountChange` events (SPEC §2.2).
public enum AccountStatus: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    case available
    case noAccount
    case restricted
    case couldNotDetermine
    case temporarilyUnavailable
    /// Nothing heard yet: neither suppresses stalls nor reports `account_not_available`.
    case unknown

    /// The label and status JSON spelling.
    public var description: String {
        switch self {
        case .available: "available"
        case .noAccount: "no_account"
        case .restricted: "restricted"
        case .couldNotDetermine: "could_not_determine"
        case .temporarilyUnavailable: "temporarily_unavailable"
        case .unknown: "unknown"
        }
    }

    /// Parses the wire spelling of `accountStatus.status` (camel case, as CKAccountStatus).
    public init?(wire name: UnsafeRawBufferPointer) {
        if InlineName.bytes(name, equal: "available") {
            self = .available
        } else if InlineName.bytes(name, equal: "noAccount") {
            self = .noAccount
        } else if InlineName.bytes(name, equal: "restricted") {
            self = .restricted
        } else if InlineName.bytes(name, equal: "couldNotDetermine") {
            self = .couldNotDetermine
        } else if InlineName.bytes(name, equal: "temporarilyUnavailable") {
            self = .temporarilyUnavailable
        } else {
            return nil
        }
    }

    /// Only a known status other than `available` counts as "account not available".
    public var isKnownUnavailable: Bool {
        self != .available && self != .unknown
    }
}

/// `accountChange.changeType`, as CKSyncEngine's `AccountChange.ChangeType`.
public enum AccountChangeType: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case signIn
    case signOut
    case switchAccounts

    /// The metric label spelling.
    public var description: String {
        switch self {
        case .signIn: "sign_in"
        case .signOut: "sign_out"
        case .switchAccounts: "switch_accounts"
        }
    }

    public init?(wire name: UnsafeRawBufferPointer) {
        if InlineName.bytes(name, equal: "signIn") {
            self = .signIn
        } else if InlineName.bytes(name, equal: "signOut") {
            self = .signOut
        } else if InlineName.bytes(name, equal: "switchAccounts") {
            self = .switchAccounts
        } else {
            return nil
        }
    }
}

/// The network condition of a pair (SPEC §2.2).
public enum NetworkStatus: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    case available
    case unavailable
    /// Nothing heard yet.
    case unknown

    /// The label and status JSON spelling.
    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable: "unavailable"
        case .unknown: "unknown"
        }
    }
}
