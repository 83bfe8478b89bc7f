/// What a line says, and how it is passed on to wrap's own output.
public struct ParsedLine: Equatable, Sendable {
    public var reports: [ToolReport]
    public var display: LineDisplay

    public init(_ reports: [ToolReport] = [], display: LineDisplay = .unchanged) {
        self.reports = reports
        self.display = display
    }
}

/// How a line reaches wrap's output (and so the journal of the timer's unit).
public enum LineDisplay: Equatable, Sendable {
    /// As the tool wrote it, with its own terminator.
    case unchanged
    /// In place of the line: a machine-readable line wrap asked for, rendered as the tool's
    /// human text would have been (one or more lines, without a final newline).
    case replaced(String)
    /// Not shown: progress wrap asked for only to read it.
    case hidden
}
