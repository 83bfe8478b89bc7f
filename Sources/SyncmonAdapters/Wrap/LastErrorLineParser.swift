import SyncmonCore

/// Reads the standard error of a command wrap knows nothing about (docs/wrap.md): its last
/// non-blank line is the message of a failed run, passed through unchanged. Nothing in it is
/// progress or a problem: only the exit status decides.
public struct LastErrorLineParser: ToolOutputParser {
    public private(set) var lastError: String?

    public init() {}

    public mutating func read(_ line: String, from stream: ToolOutputStream) -> ParsedLine {
        if stream == .standardError, line.contains(where: { !$0.isWhitespace }) {
            // Cut at once: a command may write megabytes on one line.
            self.lastError = ErrorMessage.clean(line)
        }
        return ParsedLine()
    }
}
