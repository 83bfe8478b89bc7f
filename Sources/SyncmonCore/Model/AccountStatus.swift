/// The account condition of a pair, from `accountStatus` and `accountChange` events (docs/protocol.md#account-and-network).
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

    /// The wire spelling of `accountStatus.status` (camel case, as CKAccountStatus): the one
    /// table the decoder and the client's renderer share. `nil` for `unknown`, syncmon's own
    /// "nothing heard yet", which no engine sends.
    public var wireName: StaticString? {
        switch self {
        case .available: "available"
        case .noAccount: "noAccount"
        case .restricted: "restricted"
        case .couldNotDetermine: "couldNotDetermine"
        case .temporarilyUnavailable: "temporarilyUnavailable"
        case .unknown: nil
        }
    }

    /// Parses the wire spelling of `accountStatus.status`.
    public init?(wire name: UnsafeRawBufferPointer) {
        guard let status = Self.allCases.first(where: { $0.wireName.map { InlineName.bytes(name, equal: $0) } ?? false }) else { return nil }
        self = status
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

    /// The wire spelling of `accountChange.changeType` (camel case, as CKSyncEngine's), shared
    /// by the decoder and the client's renderer.
    public var wireName: StaticString {
        switch self {
        case .signIn: "signIn"
        case .signOut: "signOut"
        case .switchAccounts: "switchAccounts"
        }
    }

    public init?(wire name: UnsafeRawBufferPointer) {
        guard let change = Self.allCases.first(where: { InlineName.bytes(name, equal: $0.wireName) }) else { return nil }
        self = change
    }
}

/// The network condition of a pair (docs/protocol.md#account-and-network).
public enum NetworkStatus: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    case available
    case unavailable
    /// Nothing heard yet.
    case unknown

    /// The network as a pair shows it: the engine's own word, else the host's view
    /// (docs/protocol.md, "Account and network").
    @inline(__always)
    static func seen(engine: NetworkStatus, host: NetworkStatus) -> NetworkStatus {
        engine != .unknown ? engine : host
    }

    /// The label and status JSON spelling.
    public var description: String {
        switch self {
        case .available: "available"
        case .unavailable: "unavailable"
        case .unknown: "unknown"
        }
    }
}
