import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif
import SyncmonCore

/// `syncmon status`: asks the running daemon, prints a table or JSON, exits Nagios-style.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the running daemon knows about each engine.",
        discussion: """
            Exit status follows the Nagios plugin convention, so this works as a check command: \
            0 OK (succeeded, in_progress, not_started, throttled, retrying, stopped), 1 WARNING \
            (no_network, account_not_available), 2 CRITICAL (error, stalled, engine_down), \
            3 UNKNOWN (no engines, or the daemon cannot be reached).
            """
    )

    @Option(help: "Only this engine.")
    var engine: String?

    @Flag(help: "Print the status JSON (as GET /api/v1/status) instead of a table.")
    var json = false

    @Flag(help: "Redraw every 2 seconds until interrupted.")
    var watch = false

    @Option(help: "The daemon's HTTP address.")
    var url = "http://127.0.0.1:9478"

    func run() throws {
        let client = StatusClient(url: self.url, timeoutSeconds: 5)
        let colors = !self.json && isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        while true {
            let severity = self.showOnce(client: client, colors: colors, clearScreen: self.watch && colors)
            guard self.watch else { throw ExitCode(severity.rawValue) }
            sleep(2)
        }
    }

    private func showOnce(client: StatusClient, colors: Bool, clearScreen: Bool) -> Severity {
        do {
            let status = try client.fetch(engine: self.engine)
            if clearScreen { print("\u{1B}[H\u{1B}[2J", terminator: "") }
            if self.json {
                print(status.json, terminator: status.json.hasSuffix("\n") ? "" : "\n")
            } else if status.rows.isEmpty, let engine = self.engine {
                print("No engine named \(engine) is tracked.")
            } else {
                print(StatusTable.render(rows: status.rows, now: status.now, colors: colors), terminator: "")
            }
            return Severity.worst(of: status.rows.map(\.summary.severity))
        } catch {
            printError("syncmon status: \(error)")
            return .unknown
        }
    }
}
