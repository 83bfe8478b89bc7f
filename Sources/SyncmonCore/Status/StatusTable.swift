/// The human-readable status table of `syncmon status` and `syncmon replay`.
public enum StatusTable {
    /// Renders `rows` as aligned columns. With `colors`, summaries are coloured and marked with
    /// a symbol (for a terminal); without, the output is plain text for pipes and logs.
    public static func render(rows: [StatusRow], now: Timestamp, colors: Bool = false) -> String {
        guard !rows.isEmpty else { return "No engines tracked (as of \(RFC3339.format(now))).\n" }
        let header = ["ENGINE", "DATABASE", "SUMMARY", "STALLED", "SETUP", "IMPORT", "EXPORT", "ACCOUNT", "NETWORK", "LAST EVENT"]
        var table = [header]
        for row in rows {
            table.append([
                row.key.engine.description,
                row.key.database.description,
                (colors ? self.symbol(row.summary) + " " : "") + row.summary.description,
                row.stalls.isEmpty ? "-" : row.stalls.map(row.describe).joined(separator: ","),
                self.describe(row.setup, failing: row.failing(.setup), now: now),
                self.describe(row.importPhase, failing: row.failing(.import), now: now),
                self.describe(row.exportPhase, failing: row.failing(.export), now: now),
                row.account.description,
                row.network.description,
                self.age(of: row.lastEvent, at: now) + (row.up ? "" : " (down)"),
            ])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        var output = ""
        for (index, cells) in table.enumerated() {
            var line = ""
            for (column, cell) in cells.enumerated() {
                let padded = column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                if colors, index > 0, column == 2 {
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

    /// `succeeded`, `failed (quotaExceeded)`, or with an outstanding failure under a retry,
    /// `in_progress, failing since 10:02 (quotaExceeded)`.
    public static func describe(_ state: PhaseState, failing: OutstandingFailure?, now: Timestamp) -> String {
        switch (state, failing) {
        case (.failed(_, _, let error), nil): return "failed (\(error.code))"
        case (_, nil): return state.name.description
        case (.failed, let failing?): return "failed since \(self.clock(failing.since, now: now)) (\(failing.error.code))"
        case (_, let failing?): return "\(state.name), failing since \(self.clock(failing.since, now: now)) (\(failing.error.code))"
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
