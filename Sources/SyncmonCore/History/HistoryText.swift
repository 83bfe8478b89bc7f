/// The pairs' history in a terminal (`syncmon status --history`, docs/operations.md#history):
/// one line per change, every pair in one timeline, newest last, the columns aligned:
///
///     2026-11-28 10:02:11  notes/private  succeeded → error  export: quotaExceeded — Storage full
///
/// Times are UTC. A pair's first verdict reads `new → …`. Whatever an engine supplied (names,
/// codes, messages, reasons) goes through ``TerminalText`` first.
public enum HistoryText {
    /// The lines, each ending in a newline; empty when there is no change. With `colors`, the
    /// summary a change went to is coloured as the status table colours it.
    public static func render(_ document: HistoryDocument, colors: Bool = false) -> String {
        let lines = document.timeline.map { entry in
            (
                time: Self.time(entry.change.time),
                pair: TerminalText.sanitized(entry.key.description),
                from: entry.change.from?.description ?? "new",
                to: entry.change.to,
                why: Self.why(entry.change)
            )
        }
        let pairWidth = lines.map { TerminalText.width($0.pair) }.max() ?? 0
        let moveWidth = lines.map { $0.from.count + 3 + $0.to.description.count }.max() ?? 0
        var output = ""
        for line in lines {
            let to = colors ? StatusTable.color(line.to) + line.to.description + "\u{1B}[0m" : line.to.description
            let padding = String(repeating: " ", count: moveWidth - (line.from.count + 3 + line.to.description.count))
            var text = line.time + "  " + TerminalText.padded(line.pair, to: pairWidth) + "  " + line.from + " → " + to
            if !line.why.isEmpty { text += padding + "  " + line.why }
            output += text + "\n"
        }
        return output
    }

    /// Why, as the change says it: `export: quotaExceeded — Storage full`, `no_progress`, a reason.
    static func why(_ change: HealthChange) -> String {
        if let code = change.code {
            var text = (change.phase.map { "\($0): " } ?? "") + TerminalText.sanitized(code)
            if let message = change.message { text += " — " + TerminalText.sanitized(message) }
            return text
        }
        return change.reason.map(TerminalText.sanitized) ?? ""
    }

    /// `2026-11-28 10:02:11`: the date and the time of day of the RFC 3339 text (UTC), to the second.
    static func time(_ time: Timestamp) -> String {
        let text = RFC3339.format(time)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }
}
