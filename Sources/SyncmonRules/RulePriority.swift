/// A syslog priority as `journalctl -p` takes it: a name (`err`, `warning`, …) or `0`…`7`.
///
/// A rule with a priority matches entries of that priority and the more severe ones, so
/// `priority = err` takes `emerg` … `err` and leaves `warning` … `debug`.
public enum RulePriority: Int, Sendable, CaseIterable, Comparable {
    case emerg = 0, alert, crit, err, warning, notice, info, debug

    /// What an entry without `PRIORITY` is: journald's own default for a service's output.
    public static let unstated = RulePriority.info

    /// Parses `journalctl -p`'s spellings (`err` and `error`, `warning` and `warn`, or a digit).
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "emerg", "0": self = .emerg
        case "alert", "1": self = .alert
        case "crit", "2": self = .crit
        case "err", "error", "3": self = .err
        case "warning", "warn", "4": self = .warning
        case "notice", "5": self = .notice
        case "info", "6": self = .info
        case "debug", "7": self = .debug
        default: return nil
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
