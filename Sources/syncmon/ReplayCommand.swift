import ArgumentParser
import SyncmonCore

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
            or the JSON of GET /api/v1/status with --json. Rejected lines are summarised on stderr.

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

    @OptionGroup(title: "Stall thresholds")
    var stallThresholds: StallThresholdOptions

    func run() throws {
        let wallClock = Self.wallClock()
        var session = ReplaySession(configuration: MonitorConfiguration(thresholds: self.stallThresholds.thresholds, maximumPairs: .max))
        do {
            try ByteStream.read(path: self.file) { session.feed($0) }
        } catch {
            printError("syncmon replay: \(error)")
            throw ExitCode(4)
        }
        session.finish(fallbackTime: wallClock)
        let now = session.now(advancedBy: self.advance.span, fallbackTime: wallClock)
        let rows = session.monitor.rows(at: now)
        if self.json {
            print(StatusDocument.json(rows: rows, now: now), terminator: "")
        } else {
            print(StatusTable.render(rows: rows, now: now), terminator: "")
        }
        printError(Self.summary(of: session))
        throw ExitCode(Severity.worst(of: rows.map(\.summary.severity)).rawValue)
    }

    /// One line for stderr: what was read, applied and rejected.
    static func summary(of session: ReplaySession) -> String {
        let monitor = session.monitor
        var line = "replay: \(session.lines) lines, \(monitor.accepted) events applied"
        let rejected = RejectionReason.allCases.filter { monitor.rejectedCount($0) > 0 }
        if rejected.isEmpty {
            line += ", none rejected"
        } else {
            let total = rejected.reduce(0) { $0 + monitor.rejectedCount($1) }
            line += ", \(total) rejected (" + rejected.map { "\($0): \(monitor.rejectedCount($0))" }.joined(separator: ", ") + ")"
        }
        if monitor.duplicates > 0 { line += ", \(monitor.duplicates) duplicates dropped" }
        return line
    }

    static func wallClock() -> Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(microseconds: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    // write(2) on the descriptor: the C `stderr` global is not concurrency-safe to touch from Swift 6.
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
