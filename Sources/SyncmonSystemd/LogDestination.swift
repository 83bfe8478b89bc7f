/// Where log entries actually go once a ``LogTarget`` has been resolved.
public enum LogDestination: String, Sendable, Hashable, CaseIterable {
    /// Structured entries over journald's native protocol.
    case journald
    /// logfmt lines on stderr.
    case stderr
}
