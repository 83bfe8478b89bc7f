import FoundationEssentials
import SyncmonCore

/// Reads `restic backup --json` (restic 0.14): status lines on standard output are progress,
/// error messages on standard error are problems, and the text restic still writes on standard
/// error (backend retries, `Fatal: …`) is read too (docs/wrap.md).
///
/// A status line carries the run's totals; progress is files or bytes done, or the scan's file
/// count, growing. restic writes a status line every second even when nothing moves, so an
/// unchanged line is no progress. Its counters are what restic has read and packed, which runs
/// ahead of the upload by the packs in flight; the bytes restic itself moves (/proc I/O) cover
/// that tail. Error messages name the item and the step (`scan`, `archival`); in 0.14 the error
/// itself is often an empty object `{}`.
public struct ResticProgressParser: ToolOutputParser {
    /// wrap added `--json`: status lines are hidden, the summary and errors shown as text.
    let renderJSON: Bool
    private var previous = Totals()
    private var fatal: String?
    private var warning: String?

    public init(renderJSON: Bool) {
        self.renderJSON = renderJSON
    }

    /// `Fatal: …`, else the warning about unreadable files, else nothing.
    public var lastError: String? { self.fatal ?? self.warning }

    /// The counters of a status line that mean something moved.
    struct Totals: Equatable {
        var filesDone: Int64 = 0
        var bytesDone: Int64 = 0
        var totalFiles: Int64 = 0
    }

    /// One JSON message: `status`, `error`, `summary` or `verbose_status`. Zero counts are left
    /// out by restic (`omitempty`), so every field is optional.
    struct Message: Decodable {
        var message_type: String?
        var total_files: Int64?
        var files_done: Int64?
        var bytes_done: Int64?
        var error: ErrorValue?
        var during: String?
        var item: String?
        var action: String?
        var files_new: Int64?
        var files_changed: Int64?
        var files_unmodified: Int64?
        var dirs_new: Int64?
        var dirs_changed: Int64?
        var dirs_unmodified: Int64?
        var data_added: Int64?
        var total_files_processed: Int64?
        var total_bytes_processed: Int64?
        var total_duration: Double?
        var snapshot_id: String?
        var dry_run: Bool?
    }

    /// A Go error as restic 0.14 serialises it: `{}` for most, a `*fs.PathError` as
    /// `{"Op":"open","Path":"…","Err":13}`, a string in later versions.
    struct ErrorValue: Decodable {
        var text: String?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let string = try? single.decode(String.self) {
                self.text = string
                return
            }
            guard let object = try? decoder.container(keyedBy: Key.self) else { return }
            if let message = try? object.decode(String.self, forKey: Key(stringValue: "message")) {
                self.text = message
            } else if let operation = try? object.decode(String.self, forKey: Key(stringValue: "Op")) {
                let path = (try? object.decode(String.self, forKey: Key(stringValue: "Path"))) ?? ""
                let errno = (try? object.decode(Int.self, forKey: Key(stringValue: "Err"))).map { " (errno \($0))" } ?? ""
                self.text = "\(operation) \(path)\(errno)"
            }
        }
    }

    public mutating func read(_ line: String, from stream: ToolOutputStream) -> ParsedLine {
        if line.first == "{", let message = try? JSONDecoder().decode(Message.self, from: Data(line.utf8)) {
            return self.read(message)
        }
        guard stream == .standardError else { return ParsedLine() }
        // Backend retries: "Save(<data/0116dd9c98>) returned error, retrying after 552.330144ms: …".
        if line.contains(" returned error, retrying after ") {
            return ParsedLine([.problem(ToolProblem(.backendRetry, message: line))])
        }
        if line.hasPrefix("Fatal: ") { self.fatal = line }
        if line.hasPrefix("Warning: ") { self.warning = line }
        return ParsedLine()
    }

    private mutating func read(_ message: Message) -> ParsedLine {
        switch message.message_type {
        case "status":
            // Below zero counts as zero, so the differences below cannot overflow.
            func count(_ value: Int64?) -> Int64 { max(0, value ?? 0) }
            let current = Totals(filesDone: count(message.files_done), bytesDone: count(message.bytes_done), totalFiles: count(message.total_files))
            defer { self.previous = current }
            let delta = ProgressDelta(
                bytes: max(0, current.bytesDone - self.previous.bytesDone),
                files: max(0, current.filesDone - self.previous.filesDone),
                // The scan growing: restic is still finding what to back up.
                checks: max(0, current.totalFiles - self.previous.totalFiles)
            )
            return ParsedLine(delta.isProgress ? [.progress(delta)] : [], display: self.renderJSON ? .hidden : .unchanged)
        case "error":
            var text = "error: \(message.item ?? "?") (during \(message.during ?? "?"))"
            if let detail = message.error?.text, !detail.isEmpty { text += ": \(detail)" }
            return ParsedLine([.problem(ToolProblem(.itemFailed, message: text))], display: self.renderJSON ? .replaced(text) : .unchanged)
        case "summary":
            return ParsedLine(display: self.renderJSON ? .replaced(Self.summaryText(message)) : .unchanged)
        case "verbose_status":
            let text = [message.action, message.item].compactMap { $0 }.joined(separator: " ")
            return ParsedLine(display: self.renderJSON ? .replaced(text) : .unchanged)
        default:
            return ParsedLine()
        }
    }

    /// The summary as restic prints it without `--json` (internal/ui/backup/text.go).
    static func summaryText(_ message: Message) -> String {
        func count(_ value: Int64?) -> String {
            let text = String(value ?? 0)
            return String(repeating: " ", count: max(0, 5 - text.count)) + text
        }
        let processed =
            message.total_files_processed
            ?? (message.files_new ?? 0).addingSaturated(message.files_changed ?? 0).addingSaturated(message.files_unmodified ?? 0)
        var lines = [
            "Files:       \(count(message.files_new)) new, \(count(message.files_changed)) changed, \(count(message.files_unmodified)) unmodified",
            "Dirs:        \(count(message.dirs_new)) new, \(count(message.dirs_changed)) changed, \(count(message.dirs_unmodified)) unmodified",
            "\(message.dry_run == true ? "Would add" : "Added") to the repository: \(Self.bytes(message.data_added ?? 0))",
            "processed \(processed) files, \(Self.bytes(message.total_bytes_processed ?? 0)) in \(Self.duration(message.total_duration ?? 0))",
        ]
        if let snapshot = message.snapshot_id { lines.append("snapshot \(snapshot) saved") }
        return lines.joined(separator: "\n")
    }

    /// Sizes as restic writes them: `4.768 MiB`, `512 B`.
    static func bytes(_ count: Int64) -> String {
        let units: [(Int64, String)] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, unit) in units where count >= size {
            let thousandths = Int64((Double(count) / Double(size) * 1000).rounded())
            let fraction = String(thousandths % 1000)
            return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) \(unit)"
        }
        return "\(count) B"
    }

    /// Durations as restic writes them: `0:04`, `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        // Whole seconds, within what an Int holds (a corrupt line may say 1e300 or -1).
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15)) : 0
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(total % 60))" : "\(minutes):\(two(total % 60))"
    }
}
