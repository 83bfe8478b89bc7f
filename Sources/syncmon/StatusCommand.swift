import ArgumentParser
import FoundationEssentials
import SyncmonCore
import SyncmonDaemon

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
            (no_network, account_not_available), 2 CRITICAL (error, stalled, engine_down), \
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

    @Flag(help: "Redraw every 2 seconds until interrupted.")
    var watch = false

    @Option(help: "The daemon's address: http://host:port, or https://host:port when its web configuration serves TLS.")
    var url = "http://127.0.0.1:9478"

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

    /// The format asked for, `--json` meaning `--format json`.
    var chosenFormat: Format { self.json ? .json : self.format ?? .table }

    func validate() throws {
        if (self.certificateFile == nil) != (self.keyFile == nil) {
            throw ValidationError("--cert-file and --key-file go together")
        }
        if self.json, let format = self.format, format != .json {
            throw ValidationError("--json is short for --format json; it cannot go with --format \(format.rawValue)")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let client = StatusClient(
            url: self.url,
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
        while true {
            let severity = await self.showOnce(client: client, format: format, colors: colors, clearScreen: self.watch && colors)
            guard self.watch else { throw ExitCode(severity.rawValue) }
            try await Task.sleep(for: .seconds(2))
        }
    }

    private func showOnce(client: StatusClient, format: Format, colors: Bool, clearScreen: Bool) async -> Severity {
        // Checked here rather than in validate(): a check command with a bad argument is UNKNOWN
        // (exit 3) by the plugin convention, not a usage error (64).
        if let engine = self.engine, !EngineName.isValid(engine.utf8) {
            let message = "--engine must be 1-64 characters of [A-Za-z0-9._-], not \(engine)"
            if format == .nagios { print(NagiosLine.unknown(message)) } else { printError("syncmon status: \(message)") }
            return .unknown
        }
        if self.user != nil, ProcessInfo.processInfo.environment["SYNCMON_PASSWORD"] == nil {
            let message = "--user needs the password in the SYNCMON_PASSWORD environment variable"
            if format == .nagios { print(NagiosLine.unknown(message)) } else { printError("syncmon status: \(message)") }
            return .unknown
        }
        do {
            let status = try await client.fetch(engine: self.engine)
            if clearScreen { print("\u{1B}[H\u{1B}[2J", terminator: "") }
            switch format {
            case .json:
                print(status.json, terminator: status.json.hasSuffix("\n") ? "" : "\n")
            case .nagios:
                print(NagiosLine.render(rows: status.document.engines, engine: self.engine))
            case .table:
                if status.document.engines.isEmpty, let engine = self.engine {
                    print("No engine named \(engine) is tracked.")
                } else {
                    print(StatusTable.render(rows: status.document.engines, now: status.document.now, colors: colors), terminator: "")
                }
                // The state on disk is behind: the operator should know before a restart.
                if let warning = status.document.stateSave?.warning { printError("syncmon status: warning: \(warning)") }
            }
            return Severity.worst(of: status.document.engines.map(\.summary.severity))
        } catch {
            // A check command's output is its first line on stdout: the monitoring system must
            // read why it is UNKNOWN there, not in a log of stderr nobody sees.
            if format == .nagios {
                print(NagiosLine.unreachable(reason: "\(error)"))
            } else {
                printError("syncmon status: \(error)")
            }
            return .unknown
        }
    }
}
