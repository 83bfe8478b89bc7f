/// The human-readable status table of `syncmon status` and `syncmon replay`
/// (docs/operations.md#syncmon-status).
///
/// It fits the width it is given, 80 columns unless the terminal or `$COLUMNS` says more:
/// `ENGINE/DATABASE  SUMMARY  DETAIL  LAST EVENT`, DETAIL saying why (``StatusDetail``). The
/// widths come from the content: names whole where they fit, DETAIL cut with `…` first, the names
/// only when DETAIL at its narrowest still leaves too little room. `wide` prints every column
/// instead, however wide that gets. Text from engines is sanitized (``TerminalText``) either way.
public enum StatusTable {
    /// The width the table fits when it is told none (a pipe without `$COLUMNS`).
    public static let columns = 80
    /// The most columns a cell of the wide table takes (DETAIL: ``wideDetailColumns``), so that
    /// a 64 KiB error message cannot make a row of 64 KiB.
    static let wideCellColumns = 64
    static let wideDetailColumns = 160
    /// The narrowest DETAIL gets before the names are cut, and the narrowest the names get.
    static let minimumDetailColumns = 20
    static let minimumPairColumns = 16

    /// The width the table fits: the terminal's when stdout is one, else `$COLUMNS` when it is a
    /// positive number, else ``columns`` (80), so that a pipe reads as it always has.
    public static func width(terminal: Int?, columnsVariable: String?) -> Int {
        if let terminal, terminal > 0 { return terminal }
        if let text = columnsVariable, let value = Int(text), value > 0 { return value }
        return self.columns
    }

    /// Renders `rows` as aligned columns fitting `columns`. With `colors`, summaries are coloured
    /// and marked with a symbol (for a terminal); without, the output is plain text for pipes and
    /// logs. With `lines` (a `--watch` frame's height under its own header), at most that many
    /// lines: rows that do not fit are left out, problems kept first (``fit(_:lines:)``), and a
    /// last line says how many more there are.
    public static func render(
        rows: [StatusRow], now: Timestamp, colors: Bool = false, wide: Bool = false, columns: Int = StatusTable.columns, lines: Int? = nil
    ) -> String {
        guard !rows.isEmpty else { return "No engines tracked (as of \(RFC3339.format(now))).\n" }
        // The header takes a line of the frame; the rows share the rest.
        let fitted = lines.map { self.fit(rows, lines: $0 - 1) } ?? (shown: rows, hidden: [])
        let rows = fitted.shown
        let summaries = rows.map { (colors ? self.symbol($0.summary) + " " : "") + $0.summary.description }
        let table = wide ? self.wideCells(rows, summaries: summaries, now: now) : self.compactCells(rows, summaries: summaries, now: now, columns: columns)
        var output = ""
        for (index, cells) in ([table.header] + table.rows).enumerated() {
            var line = ""
            for (column, cell) in cells.enumerated() {
                let isLast = column == cells.count - 1
                let padded = isLast ? cell : TerminalText.padded(cell, to: table.widths[column]) + "  "
                if colors, index > 0, column == 1 {
                    line += self.color(rows[index - 1].summary) + padded + "\u{1B}[0m"
                } else if colors, index == 0 {
                    line += "\u{1B}[1m" + padded + "\u{1B}[0m"
                } else {
                    line += padded
                }
            }
            output += line + "\n"
        }
        if !fitted.hidden.isEmpty { output += self.more(fitted.hidden) + "\n" }
        return output
    }

    /// The rows that fit in `lines` lines, in the table's order, and the rows left out: all of
    /// them when they fit; else one line fewer, for the line that counts the rest, and the rows
    /// kept are the worst (critical, unknown, warning, then ok, each in the table's order), so
    /// that a short window never hides a problem behind a healthy pair.
    public static func fit(_ rows: [StatusRow], lines: Int) -> (shown: [StatusRow], hidden: [StatusRow]) {
        guard rows.count > lines else { return (rows, []) }
        let worstFirst = rows.indices.sorted { lhs, rhs in
            let (left, right) = (rows[lhs].summary.severity, rows[rhs].summary.severity)
            return left == right ? lhs < rhs : NagiosLine.isWorse(left, than: right)
        }
        let kept = Set(worstFirst.prefix(max(0, lines - 1)))
        return (rows.indices.filter { kept.contains($0) }.map { rows[$0] }, rows.indices.filter { !kept.contains($0) }.map { rows[$0] })
    }

    /// `… 12 more`, and how many of them are not ok when some are (a window shorter than the problems).
    static func more(_ hidden: [StatusRow]) -> String {
        let problems = hidden.filter { $0.summary.severity != .ok }.count
        return "… \(hidden.count) more" + (problems > 0 ? " (\(problems) not ok)" : "")
    }

    /// The cells of the table that fits `columns`, and their widths.
    static func compactCells(
        _ rows: [StatusRow], summaries: [String], now: Timestamp, columns: Int
    ) -> (header: [String], rows: [[String]], widths: [Int]) {
        let header = ["ENGINE/DATABASE", "SUMMARY", "DETAIL", "LAST EVENT"]
        let cells = zip(rows, summaries).map { row, summary in
            [
                TerminalText.sanitized(row.key.description),
                summary,
                TerminalText.sanitized(StatusDetail.text(for: row, now: now)),
                self.age(of: row.lastEvent, at: now),
            ]
        }
        let natural = header.indices.map { column in ([header] + cells).map { TerminalText.width($0[column]) }.max() ?? 0 }
        let widths = self.widths(natural: natural, columns: columns)
        let cut = cells.map { row in [TerminalText.cut(row[0], to: widths[0]), row[1], TerminalText.cut(row[2], to: widths[2]), row[3]] }
        return (header, cut, widths)
    }

    /// The widths of ENGINE/DATABASE, SUMMARY, DETAIL and LAST EVENT in `columns`, from the
    /// widest cell of each (`natural`, the header's included). SUMMARY and LAST EVENT are short
    /// words that are never cut. The names are kept whole while DETAIL keeps at least
    /// ``minimumDetailColumns`` (or all it needs, when less); DETAIL takes the rest, up to what it
    /// needs. Only a width too narrow even for the names at ``minimumPairColumns`` makes a line
    /// longer than `columns`.
    public static func widths(natural: [Int], columns: Int) -> [Int] {
        // Three separators of two spaces.
        let available = columns - 6 - natural[1] - natural[3]
        let detailFloor = min(natural[2], self.minimumDetailColumns)
        let pair = min(natural[0], max(self.minimumPairColumns, available - detailFloor))
        let detail = min(natural[2], max(detailFloor, available - pair))
        return [pair, natural[1], detail, natural[3]]
    }

    /// The cells of the wide table: every column.
    static func wideCells(_ rows: [StatusRow], summaries: [String], now: Timestamp) -> (header: [String], rows: [[String]], widths: [Int]) {
        let header = [
            "ENGINE/DATABASE", "SUMMARY", "STALLED", "SETUP", "IMPORT", "EXPORT", "ACCOUNT", "NETWORK", "PENDING", "LAST EVENT", "DETAIL",
        ]
        let cells = zip(rows, summaries).map { row, summary in
            // A stopped or down engine runs nothing: an import it left open is not in progress.
            let interrupted = row.summary == .stopped || row.summary == .engineDown
            // A pair that never reported setup or its account (a wrapped job) has nothing to show there.
            let hasSetup = row.setup != .notStarted || row.failing(.setup) != nil
            return [
                row.key.description,
                summary,
                row.stalls.isEmpty ? "-" : row.stalls.map { StatusDetail.describe($0, of: row) }.joined(separator: ","),
                hasSetup ? self.describe(row.setup, failing: row.failing(.setup), now: now, interrupted: interrupted) : "-",
                self.describe(row.importPhase, failing: row.failing(.import), now: now, interrupted: interrupted),
                self.describe(row.exportPhase, failing: row.failing(.export), now: now, interrupted: interrupted),
                row.account == .unknown ? "-" : row.account.description,
                row.network == .unknown ? "-" : row.network.description,
                "\(StatusDetail.pending(of: row))",
                self.age(of: row.lastEvent, at: now),
                TerminalText.cut(StatusDetail.text(for: row, now: now), to: self.wideDetailColumns),
            ].enumerated().map { $0.offset == 10 ? $0.element : TerminalText.cut($0.element, to: self.wideCellColumns) }
        }
        let widths = header.indices.map { column in ([header] + cells).map { TerminalText.width($0[column]) }.max() ?? 0 }
        return (header, cells, widths)
    }

    /// `succeeded`, `failed (quotaExceeded)`, or with an outstanding failure under a retry,
    /// `in_progress, failing since 10:02 (quotaExceeded)`; a phase a stopped or down engine left
    /// open is `interrupted`.
    public static func describe(_ state: PhaseState, failing: OutstandingFailure?, now: Timestamp, interrupted: Bool = false) -> String {
        let name = interrupted && state.isInProgress ? "interrupted" : state.name.description
        switch (state, failing) {
        case (.failed(_, _, let error), nil): return "failed (\(error.code))"
        case (_, nil): return name
        case (.failed, let failing?): return "failed since \(self.clock(failing.since, now: now)) (\(failing.error.code))"
        case (_, let failing?): return "\(name), failing since \(self.clock(failing.since, now: now)) (\(failing.error.code))"
        }
    }

    /// A UTC time of day (`10:02`) within the last day, the date (`2026-11-20`) before that.
    static func clock(_ time: Timestamp, now: Timestamp) -> String {
        let text = RFC3339.format(time)
        let sameDay = now.since(time) < .seconds(86_400 as Int64)
        // RFC 3339: "YYYY-MM-DDTHH:MM:SS…": the date is the first 10 characters, the time of day the next 5.
        let characters = Array(text)
        guard characters.count >= 16 else { return text }
        return sameDay ? String(characters[11..<16]) : String(characters[0..<10])
    }

    /// "12s ago", "5m ago", "3h ago", "2d ago".
    static func age(of time: Timestamp, at now: Timestamp) -> String {
        let seconds = max(0, now.since(time).microseconds / 1_000_000)
        switch seconds {
        case ..<120: return "\(seconds)s ago"
        case ..<7200: return "\(seconds / 60)m ago"
        case ..<172_800: return "\(seconds / 3600)h ago"
        default: return "\(seconds / 86_400)d ago"
        }
    }

    private static func symbol(_ summary: Summary) -> String {
        switch summary.severity {
        case .ok: "✓"
        case .warning: "!"
        case .critical: "✗"
        case .unknown: "?"
        }
    }

    /// The summary's colour on a terminal, by its severity (the history's lines use it too).
    static func color(_ summary: Summary) -> String {
        switch summary.severity {
        case .ok: "\u{1B}[32m"
        case .warning: "\u{1B}[33m"
        case .critical: "\u{1B}[31m"
        case .unknown: "\u{1B}[35m"
        }
    }
}
