import ArgumentParser
import SyncmonClient
import SyncmonCore

/// Which daemon socket and which (engine, database) an event goes to: shared by the commands
/// that write to the push socket themselves (`emit`, `wrap`, `forget`).
struct EngineTargetOptions: ParsableArguments {
    @Option(
        name: .customLong("events-socket"),
        help:
            "The daemon's push socket (default: $SYNCMON_EVENTS_SOCKET, else /run/syncmon/events.sock as root or when it exists, else $XDG_RUNTIME_DIR/syncmon/events.sock)."
    )
    var eventsSocket: String?

    @Option(help: "The engine identifier (1-64 characters of [A-Za-z0-9._-]).")
    var engine: String

    // One help sentence: argument-parser would print a discussion under it from column 8,
    // outside the help column.
    @Option(
        help:
            "The store the event is about (default private): a CloudKit database, a Core Data store, a folder; 1-64 characters of [A-Za-z0-9._-], like an engine name."
    )
    var database: String?

    /// Names the daemon would reject are usage errors here, before anything is sent or run.
    func validate() throws {
        guard EngineName.parse(self.engine) != nil else {
            throw ValidationError("engine names are 1-64 characters of [A-Za-z0-9._-]")
        }
        if let database, Database(database) == nil {
            throw ValidationError("database names are 1-64 characters of [A-Za-z0-9._-]")
        }
    }

    /// The socket to write to: the one given, else `$SYNCMON_EVENTS_SOCKET`, else where the
    /// daemon listens by default — the rule every client follows (as `simulate` and the client
    /// library do).
    var socketPath: String { self.eventsSocket ?? SyncmonClient.Configuration.defaultSocketPath() }
}
