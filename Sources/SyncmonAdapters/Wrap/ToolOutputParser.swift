/// Reads one tool's output line by line: what it reports, and what to show of the line.
///
/// Parsers are pure and stateful (counters are compared with the previous line's), so one
/// parser reads one run.
public protocol ToolOutputParser: Sendable {
    /// Reads one line, given without its terminator.
    mutating func read(_ line: String, from stream: ToolOutputStream) -> ParsedLine
    /// The tool's last words on a failure (rclone's `Failed to sync: …`, restic's `Fatal: …`,
    /// rsync's `@ERROR: …`), for the message of the run's end.
    var lastError: String? { get }
}

/// Which of a tool's output streams a line came on.
public enum ToolOutputStream: Sendable, Hashable {
    case standardOutput, standardError
}
