import FoundationEssentials
import SyncmonCore

/// Reads rclone's log (`--use-json-log`) on standard error: the stats lines are progress, error
/// lines are problems, and rclone's last plain-text line (`Failed to sync: …`, printed outside
/// its JSON logger) is the failure's message (docs/wrap.md, rclone 1.60).
///
/// A stats line carries the run's totals so far; progress is any of bytes, checks, transfers,
/// deletes or renames growing since the previous one. Errors: `Attempt 1/3 failed …` is rclone
/// retrying the whole run (`attemptFailed`, transient; `Attempt 3/3 succeeded`, logged at
/// ERROR too, is nothing); `Received retry after error - sleeping
/// until …` is a wait the server asked for (`requestRateLimited`, with the wait as
/// `retryAfter`); any other error line is an item that failed (`itemFailed`), and a critical one
/// is `fatalError`.
public struct RcloneProgressParser: ToolOutputParser {
    /// wrap added `--use-json-log`: the log is shown in rclone's own text format.
    let renderJSONLog: Bool
    /// wrap made the stats visible only to read them: they are not shown.
    let hideStats: Bool
    /// The totals of the previous stats line.
    private var previous = Totals()
    /// The latest error line, or rclone's final `Failed to …` line.
    private var failure: String?
    /// `lastError` of the stats, the fallback message when no error line said more.
    private var statsError: String?

    public init(renderJSONLog: Bool, hideStats: Bool) {
        self.renderJSONLog = renderJSONLog
        self.hideStats = hideStats
    }

    /// The counters of a stats line that mean something moved.
    struct Totals: Equatable {
        var bytes: Int64 = 0
        var checks: Int64 = 0
        var transfers: Int64 = 0
        var deletes: Int64 = 0
        var renames: Int64 = 0
    }

    /// One JSON log line; rclone adds `object` for log calls about a file or remote, and
    /// `stats` for the stats line.
    struct Entry: Decodable {
        var level: String?
        var msg: String?
        var object: String?
        var time: String?
        var stats: Stats?
    }

    /// The `stats` object (fs/accounting/stats.go); only what progress needs.
    struct Stats: Decodable {
        var bytes: Int64?
        var checks: Int64?
        var transfers: Int64?
        var deletes: Int64?
        var deletedDirs: Int64?
        var renames: Int64?
        var lastError: String?
    }

    public var lastError: String? { self.failure ?? self.statsError }

    public mutating func read(_ line: String, from stream: ToolOutputStream) -> ParsedLine {
        // rclone logs to standard error; standard output is a command's own output (`ls`, `cat`).
        guard stream == .standardError else { return ParsedLine() }
        guard line.first == "{", let entry = try? JSONDecoder().decode(Entry.self, from: Data(line.utf8)) else {
            // The final "Failed to sync: …" comes from Go's log package, not the JSON logger.
            if let range = line.firstRange(of: "Failed to ") { self.failure = String(line[range.lowerBound...]) }
            return ParsedLine()
        }
        let rendered: LineDisplay = self.renderJSONLog ? .replaced(Self.text(of: entry)) : .unchanged
        if let stats = entry.stats {
            if let error = stats.lastError, !error.isEmpty { self.statsError = error }
            let delta = self.delta(to: stats)
            return ParsedLine(delta.isProgress ? [.progress(delta)] : [], display: self.hideStats ? .hidden : rendered)
        }
        let problem = self.problem(entry)
        return ParsedLine(problem.map { [.problem($0)] } ?? [], display: rendered)
    }

    /// How much the totals grew since the previous stats line. A counter that went down (rclone
    /// resets some between attempts) is taken as the new base, not as negative progress.
    private mutating func delta(to stats: Stats) -> ProgressDelta {
        // Counters below zero are taken as zero and sums saturate, so that no number in a log
        // line can trap (rclone's are never negative; a corrupt line may be anything).
        func count(_ value: Int64?) -> Int64 { max(0, value ?? 0) }
        let current = Totals(
            bytes: count(stats.bytes), checks: count(stats.checks), transfers: count(stats.transfers),
            deletes: count(stats.deletes).addingSaturated(count(stats.deletedDirs)), renames: count(stats.renames)
        )
        defer { self.previous = current }
        func growth(_ now: Int64, _ before: Int64) -> Int64 { max(0, now - before) }
        return ProgressDelta(
            bytes: growth(current.bytes, self.previous.bytes),
            files: growth(current.transfers, self.previous.transfers),
            checks: growth(current.checks, self.previous.checks).addingSaturated(growth(current.renames, self.previous.renames)),
            deletes: growth(current.deletes, self.previous.deletes)
        )
    }

    /// The problem an error (or rate-limit notice) line reports.
    private mutating func problem(_ entry: Entry) -> ToolProblem? {
        let message = entry.msg ?? ""
        let text = entry.object.map { "\($0): \(message)" } ?? message
        switch entry.level {
        case "error" where message.hasPrefix("Attempt ") && message.hasSuffix(" succeeded"):
            // "Attempt 3/3 succeeded" is logged at ERROR too: good news, not a problem.
            return nil
        case "error":
            self.failure = text
            if message.hasPrefix("Attempt "), message.contains(" failed") { return ToolProblem(.attemptFailed, message: text) }
            return ToolProblem(.itemFailed, message: text)
        case "fatal", "panic":
            self.failure = text
            return ToolProblem(.fatalError, message: text)
        case "warning" where message.hasPrefix("Received retry after error - sleeping until"):
            // "… sleeping until 2026-11-24T02:30:00.1Z (1m0.1s)": the wait is in the parentheses.
            let wait = message.split(separator: "(").last.map { $0.dropLast($0.hasSuffix(")") ? 1 : 0) }.flatMap(GoDuration.parse)
            return ToolProblem(.requestRateLimited, message: text, retryAfter: wait)
        default:
            return nil
        }
    }

    /// An entry in rclone's text log format: `2026/11/24 02:26:38 ERROR : object: message`.
    static func text(of entry: Entry) -> String {
        // rclone's time is "2026-11-24T02:26:38.459953+00:00"; its text log shows the same clock.
        let time = entry.time.map { String($0.prefix(19)).replacing("-", with: "/").replacing("T", with: " ") + " " } ?? ""
        let level: String
        switch entry.level {
        case "debug": level = "DEBUG"
        case "info": level = "INFO"
        // rclone's JSON log writes both NOTICE and WARNING as "warning"; NOTICE is the one it uses.
        case "warning": level = "NOTICE"
        case "error": level = "ERROR"
        case "fatal": level = "CRITICAL"
        case "panic": level = "EMERGENCY"
        default: level = (entry.level ?? "").uppercased()
        }
        let padded = level.count < 6 ? level + String(repeating: " ", count: 6 - level.count) : level
        let message = entry.msg ?? ""
        var trimmed = Substring(message)
        while trimmed.last == "\n" { trimmed = trimmed.dropLast() }
        return time + padded + ": " + (entry.object.map { "\($0): " } ?? "") + trimmed
    }
}
