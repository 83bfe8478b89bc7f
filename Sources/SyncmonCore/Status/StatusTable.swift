/// The human-readable status table of `syncmon status` and `syncmon replay`
/// (docs/operations.md#syncmon-status).
///
/// By default it fits 80 columns: `ENGINE/DATABASE  SUMMARY  DETAIL  LAST EVENT`, DETAIL saying
/// why (``StatusDetail``); long names and details are cut with `…`. `wide` prints every column
/// instead, however wide that gets. Text from engines is sanitized (``TerminalText``) either way.
public enum StatusTable {
    /// The width the default table fits.
    public static let columns = 80
    /// The most columns a cell of the wide table takes (DETAIL: ``wideDetailColumns``), so that
    /// a 64 KiB error message cannot make a row of 64 KiB.
    static let wideCellColumns = 64
    static let wideDetailColumns = 160
    /// The narrowest the pair column gets before DETAIL gives way, and the narrowest DETAIL gets.
    static let minimumPairColumns = 16
    static let minimumDetailColumns = 20

    /// Renders `rows` as aligned columns. With `colors`, summaries are coloured and marked with
    /// a symbol (for a terminal); without, the output is plain text for pipes and logs.
    public static func render(rows: [StatusRow], now: Timestamp, colors: Bool = false, wide: Bool = false) -> String {
        guard !rows.isEmpty else { return "No engines tracked (as of \(RFC3339.format(now))).\n" }
        let summaries = rows.map { (colors ? self.symbol($0.summary) + " " : "") + $0.summary.description }
        let table = wide ? self.wideCells(rows, summaries: summaries, now: now) : self.compactCells(rows, summaries: summaries, now: now)
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
        return output
    }

    /// The cells of the 80-column table, cut to widths that fit.
    static func compactCells(_ rows: [StatusRow], summaries: [String], now: Timestamp) -> (header: [String], rows: [[String]], widths: [Int]) {
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
        // Three separators of two spaces; SUMMARY and LAST EVENT are short words that are never cut.
        let available = self.columns - 6 - natural[1] - natural[3]
        let pair = min(natural[0], max(self.minimumPairColumns, available - natural[2]), available - self.minimumDetailColumns)
        let detail = min(natural[2], available - pair)
        let widths = [pair, natural[1], detail, natural[3]]
        let cut = cells.map { row in [TerminalText.cut(row[0], to: pair), row[1], TerminalText.cut(row[2], to: detail), row[3]] }
        return (header, cut, widths)
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

    private static func color(_ summary: Summary) -> String {
        switch summary.severity {
        case .ok: "\u{1B}[32m"
        case .warning: "\u{1B}[33m"
        case .critical: "\u{1B}[31m"
        case .unknown: "\u{1B}[35m"
        }
    }
}
