/// One word for the health of a pair (docs/protocol.md#summary), in precedence order: the first that applies
/// wins, and an engine's overall summary is the first (worst) of its databases'.
public enum Summary: Int, CaseIterable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    case stopped
    case engineDown
    case noNetwork
    case accountNotAvailable
    case error
    case stalled
    case throttled
    case retrying
    case notStarted
    case inProgress
    case succeeded
    case unknown

    /// The label and status JSON spelling.
    public var description: String {
        switch self {
        case .stopped: "stopped"
        case .engineDown: "engine_down"
        case .noNetwork: "no_network"
        case .accountNotAvailable: "account_not_available"
        case .error: "error"
        case .stalled: "stalled"
        case .throttled: "throttled"
        case .retrying: "retrying"
        case .notStarted: "not_started"
        case .inProgress: "in_progress"
        case .succeeded: "succeeded"
        case .unknown: "unknown"
        }
    }

    public init?(_ name: String) {
        guard let summary = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = summary
    }

    /// The Nagios-convention severity `syncmon status` exits with (docs/operations.md#commands).
    public var severity: Severity {
        switch self {
        case .succeeded, .inProgress, .notStarted, .throttled, .retrying, .stopped: .ok
        case .noNetwork, .accountNotAvailable: .warning
        case .error, .stalled, .engineDown: .critical
        case .unknown: .unknown
        }
    }

    /// `not_started`, `in_progress` and `succeeded` are one health state, "ok": moving among
    /// them is a healthy engine's every cycle, not news. Every other summary is its own.
    public var isOK: Bool {
        switch self {
        case .notStarted, .inProgress, .succeeded: true
        default: false
        }
    }

    /// Whether the two summaries are the same health state (what the journal reports changes of).
    public func hasSameHealth(as other: Summary) -> Bool {
        self == other || (self.isOK && other.isOK)
    }

    /// Precedence order: a "smaller" summary is worse and wins.
    public static func < (lhs: Summary, rhs: Summary) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Nagios plugin states, which are `syncmon status`'s exit codes.
public enum Severity: Int32, Sendable, CustomStringConvertible {
    case ok = 0
    case warning = 1
    case critical = 2
    case unknown = 3

    /// Over several rows the most severe wins in the order ok < warning < unknown < critical
    /// (docs/operations.md#syncmon-status); no rows at all is unknown.
    public static func worst<Rows: Sequence<Severity>>(of severities: Rows) -> Severity {
        var worst: Severity?
        for severity in severities where worst.map({ severity.rank > $0.rank }) ?? true { worst = severity }
        return worst ?? .unknown
    }

    private var rank: Int {
        switch self {
        case .ok: 0
        case .warning: 1
        case .unknown: 2
        case .critical: 3
        }
    }

    public var description: String {
        switch self {
        case .ok: "OK"
        case .warning: "WARNING"
        case .critical: "CRITICAL"
        case .unknown: "UNKNOWN"
        }
    }
}
