import ArgumentParser
import SyncmonCore
import SyncmonDaemon

/// Which daemon socket and which (engine, database) an event goes to: shared by `emit` and
/// `wrap`, the two commands that write events themselves.
struct EngineTargetOptions: ParsableArguments {
    @Option(name: .customLong("events-socket"), help: "The daemon's push socket (default: the daemon's default).")
    var eventsSocket: String?

    @Option(help: "The engine identifier (1-64 characters of [A-Za-z0-9._-]).")
    var engine: String

    @Option(
        help: ArgumentHelp(
            "The store the event is about (default private): a CloudKit database, a Core Data store, a folder.",
            discussion: "1-64 characters of [A-Za-z0-9._-], like an engine name."
        )
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

    /// The socket to write to: the one given, else where the daemon listens by default.
    var socketPath: String { self.eventsSocket ?? DaemonConfiguration().eventsSocket }
}
