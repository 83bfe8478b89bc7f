import Logging

/// A syslog priority as journald's `PRIORITY` field carries it, `0` (emerg) to `7` (debug).
public enum JournalPriority: Int, Sendable, CaseIterable, Comparable {
    case emergency = 0
    case alert = 1
    case critical = 2
    case error = 3
    case warning = 4
    case notice = 5
    case informational = 6
    case debug = 7

    /// The priority for a swift-log level.
    ///
    /// swift-log has no `emerg` or `alert`: those mean the whole system is unusable, which a monitoring daemon never
    /// decides, so `critical` is the highest priority syncmon writes. `trace` shares `debug`, syslog's lowest.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info: self = .informational
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
