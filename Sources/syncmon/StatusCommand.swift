import ArgumentParser
import FoundationEssentials
import SyncmonCore
import SyncmonHost
import SyncmonStatusAPI

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon status`: asks the running daemon, prints a table, JSON or a Nagios line, exits
/// Nagios-style.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the running daemon knows about each engine.",
        discussion: """
            Exit status follows the Nagios plugin convention, so this works as a check command: \
            0 OK (succeeded, in_progress, not_started, throttled, retrying, stopped), 1 WARNING \
            (no_network, account_not_available), 2 CRITICAL (error, stalled, engine_down, or a \
            --subscribe source not connected: listed after the table with its last error), \
            3 UNKNOWN (no engines, or the daemon cannot be reached).

            --format nagios prints one line in the plugin output convention, for Nagios and \
            Icinga: the state, the pairs that need a look (worst first, with their stall reasons \
            or error code), then perfdata counts, e.g.
            SYNCMON CRITICAL - 1 of 3 critical: photos/private error (quotaExceeded) | ok=2 warning=0 critical=1 unknown=0

            A daemon with a web configuration (--web.config.file): --url https://… with \
            --ca-file when its certificate is not from a CA the system trusts, --cert-file and \
            --key-file when it asks for a client certificate, and --user with the password in \
            the SYNCMON_PASSWORD environment variable (never on the command line, where other \
            users see it).

            The table fits the terminal's width, else $COLUMNS, else 80 columns: \
            ENGINE/DATABASE, SUMMARY, DETAIL (why: the stall reason, the failing phase with its \
            code, since when and its message, what runs or last succeeded) and LAST EVENT. Names \
            stay whole where they fit; DETAIL is cut first, and a wider terminal gives it the \
            room. --wide prints every column. --watch redraws it in place on the terminal's \
            alternate screen until Ctrl-C; when the window is too short for every row it shows \
            the problems first and ends with "… N more".

            --wait waits until every pair shown is in sync (succeeded, nothing in progress, \
            nothing pending) and exits 0 then; with --timeout it gives up after that long and \
            exits with the status's code, or 1 when that would be 0 (healthy, not yet in sync): \
            for scripts that must not shut a host down mid-sync, e.g.
            syncmon status --engine photos --wait --timeout 10m && poweroff

            --history prints each pair's changes of health instead (the last 7 days, at most 500 \
            a pair, kept across restarts), newest last, one line each: the time (UTC), the pair, \
            the summary before and after (new for a pair first seen), and why, e.g.
            2026-11-28 10:02:11  notes/private  succeeded → error  export: quotaExceeded
            (then the engine's message). --since 2h shows only the last two hours; --json \
            prints GET /api/v1/history's JSON. \
            Exit status 0 when the daemon answered.
            """
    )

    /// What the status is printed as.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// Aligned columns, coloured on a terminal.
        case table
        /// The daemon's status JSON, as GET /api/v1/status serves it.
        case json
        /// One line in the Nagios plugin output convention (``NagiosLine``).
        case nagios
    }

    @Option(help: "Only this engine.")
    var engine: String?

    @Option(help: "table (the default), json (as GET /api/v1/status) or nagios (one line in the Nagios plugin output convention).")
    var format: Format?

    @Flag(help: "Print the status JSON: short for --format json.")
    var json = false

    @Flag(help: "Print every column of the table (setup, import, export, account, network, pending), however wide.")
    var wide = false

    @Flag(help: "Redraw every 2 seconds until interrupted (in place, on a terminal's alternate screen).")
    var watch = false

    @Flag(help: "Wait until every pair shown is in sync (succeeded, nothing in progress or pending), then exit 0.")
    var wait = false

    @Option(help: ArgumentHelp("With --wait: give up after this long (90s, 10m, 1h), exiting 1 or worse.", valueName: "duration"))
    var timeout: DurationArgument?

    @Flag(help: "Print each pair's changes of health (the last 7 days), newest last, instead of the status.")
    var history = false

    @Option(help: ArgumentHelp("With --history: only the changes made within this long (90m, 12h, 2d).", valueName: "duration"))
    var since: DurationArgument?

    @Option(
        help: """
            The daemon's address: host:port, http://host:port, or https://host:port when its web configuration serves TLS. \
            The default is where the daemon said it listens, a user's own daemon first (docs/user-sessions.md).
            """)
    var url = StatusClient.defaultURL()

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp("PEM certificates to trust for an https:// --url (the daemon's CA or its self-signed certificate).", valueName: "path"))
    var caFile: String?

    @Option(
        name: .customLong("cert-file"),
        help: ArgumentHelp(
            "A PEM client certificate for a daemon whose web configuration asks for one (client_auth_type); with --key-file.",
            valueName: "path"))
    var certificateFile: String?

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The private key (PEM) of --cert-file.", valueName: "path"))
    var keyFile: String?

    @Option(help: ArgumentHelp("The basic-auth user; the password comes from $SYNCMON_PASSWORD.", valueName: "name"))
    var user: String?

    /// How often `--watch` redraws and how often `--wait` asks: an import that succeeds is seen
    /// within half a second.
    static let watchInterval = Duration.seconds(2)
    static let waitInterval = Duration.milliseconds(500)

    /// The format asked for, `--json` meaning `--format json`.
    var chosenFormat: Format { self.json ? .json : self.format ?? .table }

    /// What one look at the daemon gives: what to print on stdout and on stderr, the exit
    /// severity, and the rows (nil when the daemon could not be asked).
    struct Look {
        var output = ""
        var errors: [String] = []
        var severity = Severity.unknown
        var rows: [StatusRow]? = nil
    }

    func validate() throws {
        if (self.certificateFile == nil) != (self.keyFile == nil) {
            throw ValidationError("--cert-file and --key-file go together")
        }
        if self.json, let format = self.format, format != .json {
            throw ValidationError("--json is short for --format json; it cannot go with --format \(format.rawValue)")
        }
        if self.wait && self.watch { throw ValidationError("--wait and --watch do not go together: --wait ends, --watch does not") }
        if self.timeout != nil && !self.wait { throw ValidationError("--timeout goes with --wait") }
        if self.wide && self.chosenFormat != .table { throw ValidationError("--wide is for the table, not --format \(self.chosenFormat.rawValue)") }
        if self.since != nil && !self.history { throw ValidationError("--since goes with --history") }
        if self.history {
            let other = [(self.wait, "--wait"), (self.watch, "--watch"), (self.wide, "--wide"), (self.chosenFormat == .nagios, "--format nagios")]
            if let conflict = other.first(where: { $0.0 }) {
                throw ValidationError("--history prints the changes as lines or --json; it does not go with \(conflict.1)")
            }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let client = StatusClient(
            url: StatusClient.withScheme(self.url),
            options: HTTPGetClient.Options(
                caFile: self.caFile,
                certificateFile: self.certificateFile,
                keyFile: self.keyFile,
                user: self.user,
                password: environment["SYNCMON_PASSWORD"],
                timeout: .seconds(5)
            )
        )
        let format = self.chosenFormat
        let colors = format == .table && isatty(STDOUT_FILENO) != 0 && environment["NO_COLOR"] == nil
        if self.history { throw ExitCode(await self.printHistory(client: client, json: format == .json, colors: colors)) }
        if self.wait { throw ExitCode(await self.waitUntilInSync(client: client, format: format, colors: colors)) }
        if self.watch { try await self.watchForever(client: client, format: format, colors: colors) }
        let look = await self.look(client: client, format: format, colors: colors, columns: TerminalSize.current().columns)
        Self.emit(look)
        throw ExitCode(look.severity.rawValue)
    }

    /// `--watch`: a frame every ``watchInterval``, headed by the time it was drawn; on a terminal
    /// on the alternate screen, redrawn in place, so the scrollback stays as it was. A frame
    /// never outgrows the window: the table gets the lines under the header, and says how many
    /// rows it left out (``StatusTable/fit(_:lines:)``), so the header and its time stay in view.
    private func watchForever(client: StatusClient, format: Format, colors: Bool) async throws -> Never {
        let screen = isatty(STDOUT_FILENO) != 0
        if screen { AlternateScreen.enter() }
        while true {
            let size = TerminalSize.current()
            // The header and the blank line under it take two lines.
            let look = await self.look(client: client, format: format, colors: colors, columns: size.columns, lines: size.lines.map { $0 - 2 })
            let time = RFC3339.format(WallClock.now())
            // "2026-11-26 16:02:21 UTC": the date and the time of day of the RFC 3339 text.
            let refreshed = String(time.prefix(10)) + " " + String(time.dropFirst(11).prefix(8)) + " UTC"
            var frame = "syncmon status at \(refreshed), every 2s (Ctrl-C to quit)\n\n" + look.output
            // On the alternate screen, stderr would scribble over the frame: errors join it.
            for error in look.errors { frame += error + "\n" }
            if screen { AlternateScreen.draw(frame) } else { AlternateScreen.write(frame + "\n") }
            try await Task.sleep(for: Self.watchInterval)
        }
    }

    /// `--wait`: asks every ``waitInterval`` until every pair is in sync (exit 0) or the
    /// timeout passes (the status's code, at least 1); prints the last status either way.
    private func waitUntilInSync(client: StatusClient, format: Format, colors: Bool) async -> Int32 {
        let clock = ContinuousClock()
        let deadline = self.timeout.map { clock.now + .microseconds($0.span.microseconds) }
        let columns = TerminalSize.current().columns
        while true {
            let look = await self.look(client: client, format: format, colors: colors, columns: columns)
            // A daemon that cannot be asked will not say "in sync" by waiting: UNKNOWN now.
            guard let rows = look.rows else {
                Self.emit(look)
                return look.severity.rawValue
            }
            if !rows.isEmpty && rows.allSatisfy(\.isInSync) {
                Self.emit(look)
                return 0
            }
            if let deadline, clock.now >= deadline {
                var look = look
                let behind = rows.filter { !$0.isInSync }.map { "\($0.key) \($0.summary)" }
                let what = rows.isEmpty ? "no pairs tracked" : "not in sync: " + behind.prefix(5).joined(separator: ", ") + (behind.count > 5 ? ", …" : "")
                look.errors.append("syncmon status: --wait: still \(what) after \(DurationParser.format(self.timeout?.span ?? .zero))")
                Self.emit(look)
                return look.severity == .ok ? 1 : look.severity.rawValue
            }
            let pause = deadline.map { min(Self.waitInterval, max(.zero, $0 - clock.now)) } ?? Self.waitInterval
            try? await Task.sleep(for: pause)
        }
    }

    /// `--history`: the pairs' changes of health as lines (``HistoryText``), newest last, or
    /// the daemon's history JSON; exits 0 when the daemon answered, 3 (UNKNOWN) when it did not.
    private func printHistory(client: StatusClient, json: Bool, colors: Bool) async -> Int32 {
        if let engine = self.engine, !EngineName.isValid(engine.utf8) {
            printError("syncmon status: --engine must be 1-64 characters of [A-Za-z0-9._-], not \(engine)")
            return Severity.unknown.rawValue
        }
        if self.user != nil, ProcessInfo.processInfo.environment["SYNCMON_PASSWORD"] == nil {
            printError("syncmon status: --user needs the password in the SYNCMON_PASSWORD environment variable")
            return Severity.unknown.rawValue
        }
        let since = self.since.map { WallClock.now().adding(TimeSpan(microseconds: -$0.span.microseconds)) }
        do {
            let history = try await client.fetchHistory(engine: self.engine, since: since)
            if json {
                print(history.json, terminator: history.json.hasSuffix("\n") ? "" : "\n")
            } else if let engine = self.engine, history.document.pairs.isEmpty {
                print("No engine named \(engine) is tracked.")
            } else {
                let lines = HistoryText.render(history.document, colors: colors)
                let span = self.since.map { "the last " + DurationParser.format($0.span) } ?? "the last 7 days"
                print(lines.isEmpty ? "No change of health in \(span).\n" : lines, terminator: "")
            }
            return 0
        } catch {
            printError("syncmon status: \(error)")
            return Severity.unknown.rawValue
        }
    }

    /// Prints a look: the output on stdout, then its errors on stderr.
    private static func emit(_ look: Look) {
        print(look.output, terminator: "")
        for error in look.errors { printError(error) }
    }

    /// Asks the daemon once and renders the answer in `format`: a table `columns` wide and, for
    /// a `--watch` frame, at most `lines` long, its stderr lines included.
    private func look(client: StatusClient, format: Format, colors: Bool, columns: Int, lines: Int? = nil) async -> Look {
        // Checked here rather than in validate(): a check command with a bad argument is UNKNOWN
        // (exit 3) by the plugin convention, not a usage error (64).
        var problem: String?
        if let engine = self.engine, !EngineName.isValid(engine.utf8) {
            problem = "--engine must be 1-64 characters of [A-Za-z0-9._-], not \(engine)"
        } else if self.user != nil, ProcessInfo.processInfo.environment["SYNCMON_PASSWORD"] == nil {
            problem = "--user needs the password in the SYNCMON_PASSWORD environment variable"
        }
        if let problem {
            return format == .nagios ? Look(output: NagiosLine.unknown(problem) + "\n") : Look(errors: ["syncmon status: \(problem)"])
        }
        do {
            let status = try await client.fetch(engine: self.engine)
            let rows = status.document.engines
            var look = Look(severity: status.document.severity, rows: rows)
            switch format {
            case .json:
                look.output = status.json + (status.json.hasSuffix("\n") ? "" : "\n")
            case .nagios:
                look.output = NagiosLine.render(rows: rows, sources: status.document.sources ?? [], engine: self.engine) + "\n"
            case .table:
                // The state on disk is behind: the operator should know before a restart.
                if let warning = status.document.stateSave?.warning { look.errors.append("syncmon status: warning: \(warning)") }
                // Sources that cannot see their engines go under the table, whole.
                let sources = SourceTroubleText.render(status.document.sources ?? [], now: status.document.now, colors: colors)
                if rows.isEmpty, let engine = self.engine {
                    look.output = "No engine named \(engine) is tracked.\n"
                } else {
                    // A watch frame shows its errors and the sources block under the table: they
                    // take lines of its own.
                    let errorLines = look.errors.reduce(0) { $0 + max(1, (TerminalText.width($1) + columns - 1) / columns) }
                    let sourceLines = sources.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
                    look.output = StatusTable.render(
                        rows: rows, now: status.document.now, colors: colors, wide: self.wide, columns: columns,
                        lines: lines.map { $0 - errorLines - sourceLines })
                }
                look.output += sources
            }
            return look
        } catch {
            // A check command's output is its first line on stdout: the monitoring system must
            // read why it is UNKNOWN there, not in a log of stderr nobody sees.
            return format == .nagios ? Look(output: NagiosLine.unreachable(reason: "\(error)") + "\n") : Look(errors: ["syncmon status: \(error)"])
        }
    }
}
