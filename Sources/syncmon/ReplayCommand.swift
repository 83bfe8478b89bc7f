import ArgumentParser
import Dispatch
import SyncmonCore
import SyncmonHost
import SyncmonStatusAPI

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon replay`: a recorded stream through the same state machines, for post-mortems and tests.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded event stream offline and print the resulting status.",
        discussion: """
            Reads NDJSON events (protocol v1) from FILE, or standard input for '-', and runs them \
            through the same decoder and state machines as the daemon, using the events' own times \
            as the clock. Then it moves the clock forward by --advance and prints the status: a table, \
            or the JSON of GET /api/v1/status with --json. Rejected lines are counted on stderr, and \
            the first \(ReplayCommand.shownRejections) named with their line number and reason \
            (all of them with --verbose).

            Exit status, as 'syncmon status' (Nagios convention): 0 ok, 1 warning, 2 critical, \
            3 unknown (no engines); 4 when FILE cannot be read.

            Example: syncmon replay events.jsonl --advance 10m --not-syncing-after 2m
            """
    )

    @Argument(help: "The recorded stream, or '-' for standard input.")
    var file: String

    @Option(help: "Move the clock forward by this much after the last event (e.g. 90s, 10m, 1h).")
    var advance = DurationArgument(.zero)

    @Flag(help: "Print the status JSON instead of a table.")
    var json = false

    @Flag(name: .shortAndLong, help: "Name every rejected line on stderr, not only the first \(ReplayCommand.shownRejections).")
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Look at the pairs as the daemon does (around each event, and whenever a verdict can change with no event) and write each change of summary to this file, one JSON object a line: a verdict that held for a while in the middle of the stream is there. One thread.",
            valueName: "file"))
    var changes: String? = nil

    /// Rejected lines named without --verbose.
    static let shownRejections = 5

    @OptionGroup(title: "Stall thresholds")
    var stallThresholds: StallThresholdOptions

    func run() throws {
        let report: ReplayReport
        do {
            report = try self.replay()
        } catch {
            printError("syncmon replay: \(error)")
            throw ExitCode(4)
        }
        print(self.json ? report.json : report.table(columns: TerminalSize.current().columns), terminator: "")
        for line in report.session.rejectedLines { printError("replay: \(line)") }
        printError(report.stderrSummary)
        throw ExitCode(report.severity.rawValue)
    }

    /// Runs `body(0..<count)` on the global queue's threads and returns when all are done. Each
    /// call touches only its own worker's data (``ReplaySession/feedAll(_:workers:parallelFrom:blockSize:perform:)``),
    /// which the compiler cannot see: hence the unchecked hand-over.
    static func concurrently(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let work = body
            DispatchQueue.concurrentPerform(iterations: count) { work($0) }
        }
    }

    /// Replays the stream and evaluates status at the end (no printing).
    func replay() throws -> ReplayReport {
        let wallClock = WallClock.now()
        let configuration = MonitorConfiguration(thresholds: self.stallThresholds.applied(to: .defaults), maximumPairs: .max)
        var session = ReplaySession(
            configuration: configuration, keptRejections: self.verbose ? .max : Self.shownRejections, looks: self.changes != nil)
        // A large recording is decoded and applied on every core (sharded by engine, merged
        // for the status); a pipe or a small file is read in chunks on this thread.
        // A --changes file that cannot be written says so before a long replay, not after it.
        if let path = self.changes { try Self.write([], to: path) }
        let workers = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let mapped = try ByteStream.withMapped(path: self.file) { bytes in
            session.feedAll(bytes, workers: workers, perform: Self.concurrently)
        }
        if !mapped { try ByteStream.read(path: self.file) { session.feed($0) } }
        session.finish(fallbackTime: wallClock)
        let now = session.now(advancedBy: self.advance.span, fallbackTime: wallClock)
        if let path = self.changes {
            session.look(until: now)
            try Self.write(session.healthChanges, to: path)
        }
        return ReplayReport(session: session, now: now, rows: session.monitor.rows(at: now))
    }
}

extension ReplayCommand {
    /// Writes each summary change as one JSON object a line (`--changes`).
    static func write(_ changes: [ReplayHealthChange], to path: String) throws {
        var text = ""
        for entry in changes {
            guard case .summaryChanged(let from) = entry.change.kind else { continue }
            let stalls = StallReason.allCases.filter { entry.change.evaluation.stalls.contains($0) }.map { "\"\($0)\"" }
            text += #"{"time":"\#(RFC3339.format(entry.time))","engine":"\#(entry.change.key.engine)","database":"\#(entry.change.key.database)","#
            text += #""from":\#(from.map { "\"\($0)\"" } ?? "null"),"to":"\#(entry.change.evaluation.summary)","stalled":[\#(stalls.joined(separator: ","))]}"#
            text += "\n"
        }
        // Plain POSIX: Foundation in this binary links ICU statically (the package's link).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ReplayChangesError(path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw ReplayChangesError(path: path, errno: errno) }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// The `--changes` file could not be written.
struct ReplayChangesError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32
    var description: String { "cannot write the --changes file \(self.path): \(String(cString: strerror(self.errno)))" }
}

/// What a replay found: the rows at the evaluation time and the line bookkeeping.
struct ReplayReport {
    var session: ReplaySession
    var now: Timestamp
    var rows: [StatusRow]

    var json: String { String(decoding: StatusDocument(now: self.now, engines: self.rows).json(), as: UTF8.self) }
    /// The table `columns` wide (the terminal's, else `$COLUMNS`, else 80), as `syncmon status` prints it.
    func table(columns: Int) -> String { StatusTable.render(rows: self.rows, now: self.now, columns: columns) }
    var severity: Severity { Severity.worst(of: self.rows.map(\.summary.severity)) }

    /// One line for stderr: what was read, applied and rejected.
    var stderrSummary: String {
        let monitor = self.session.monitor
        var line = "replay: \(self.session.lines) lines, \(monitor.accepted) events applied"
        let rejected = RejectionReason.allCases.filter { monitor.rejectedCount($0) > 0 }
        if rejected.isEmpty {
            line += ", none rejected"
        } else {
            let total = rejected.reduce(0) { $0 + monitor.rejectedCount($1) }
            line += ", \(total) rejected (" + rejected.map { "\($0): \(monitor.rejectedCount($0))" }.joined(separator: ", ") + ")"
        }
        if monitor.duplicates > 0 { line += ", \(monitor.duplicates) duplicates dropped" }
        let named = UInt64(self.session.rejectedLines.count)
        let total = RejectionReason.allCases.reduce(0) { $0 + monitor.rejectedCount($1) }
        if total > named { line += "; \(named == 0 ? "" : "\(total - named) more ")not named (--verbose names every one)" }
        return line
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    // write(2) on the descriptor: the C `stderr` global is not concurrency-safe to touch from Swift 6.
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
