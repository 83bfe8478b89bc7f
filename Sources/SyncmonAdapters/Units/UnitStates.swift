/// systemd's `LoadState` of a unit, parsed once where the bus's string is read.
public enum UnitLoadState: Sendable, Hashable, CustomStringConvertible {
    case loaded
    case notFound
    case badSetting
    case error
    case masked
    /// A word this version does not know, kept as systemd wrote it.
    case other(String)

    private static let words: [(Self, String)] = [
        (.loaded, "loaded"), (.notFound, "not-found"), (.badSetting, "bad-setting"), (.error, "error"), (.masked, "masked"),
    ]

    public init(_ text: String) {
        self = Self.words.first { $0.1 == text }?.0 ?? .other(text)
    }

    /// The word as systemd writes it.
    public var description: String {
        if case .other(let text) = self { return text }
        return Self.words.first { $0.0 == self }?.1 ?? ""
    }
}

/// systemd's `ActiveState` of a unit.
public enum UnitActiveState: Sendable, Hashable, CustomStringConvertible {
    case active
    case reloading
    case inactive
    case failed
    case activating
    case deactivating
    case maintenance
    /// A word this version does not know, kept as systemd wrote it.
    case other(String)

    private static let words: [(Self, String)] = [
        (.active, "active"), (.reloading, "reloading"), (.inactive, "inactive"), (.failed, "failed"),
        (.activating, "activating"), (.deactivating, "deactivating"), (.maintenance, "maintenance"),
    ]

    public init(_ text: String) {
        self = Self.words.first { $0.1 == text }?.0 ?? .other(text)
    }

    /// The word as systemd writes it.
    public var description: String {
        if case .other(let text) = self { return text }
        return Self.words.first { $0.0 == self }?.1 ?? ""
    }
}

/// systemd's `SubState` of a service: the states of its main process that the mapping tells
/// apart; the others are kept as written (they show in debug logs only).
public enum UnitSubState: Sendable, Hashable, CustomStringConvertible {
    case dead
    case start
    case running
    /// A oneshot (or `RemainAfterExit=`) service whose process ended with the unit still active.
    case exited
    case failed
    /// Between a crash and the restart systemd schedules (`Restart=`).
    case autoRestart
    /// A word the mapping does not tell apart, kept as systemd wrote it.
    case other(String)

    private static let words: [(Self, String)] = [
        (.dead, "dead"), (.start, "start"), (.running, "running"), (.exited, "exited"), (.failed, "failed"),
        (.autoRestart, "auto-restart"),
    ]

    public init(_ text: String) {
        self = Self.words.first { $0.1 == text }?.0 ?? .other(text)
    }

    /// The word as systemd writes it.
    public var description: String {
        if case .other(let text) = self { return text }
        return Self.words.first { $0.0 == self }?.1 ?? ""
    }
}

/// systemd's `Result` of a service: how its last run ended.
public enum UnitResult: Sendable, Hashable, CustomStringConvertible {
    case success
    /// The main process exited with a status other than success (`ExecMainStatus`).
    case exitCode
    /// The main process was killed by a signal (`ExecMainStatus` is its number).
    case signal
    /// Any other ending (`core-dump`, `watchdog`, `timeout`, `start-limit-hit`, …): its word is
    /// the failure's code as it stands.
    case other(String)

    public init(_ text: String) {
        switch text {
        case "success": self = .success
        case "exit-code": self = .exitCode
        case "signal": self = .signal
        default: self = .other(text)
        }
    }

    /// The word as systemd writes it.
    public var description: String {
        switch self {
        case .success: "success"
        case .exitCode: "exit-code"
        case .signal: "signal"
        case .other(let text): text
        }
    }
}
