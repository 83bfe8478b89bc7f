import ArgumentParser
import SyncmonDaemon

/// Which daemon socket and which (engine, database) an event goes to: shared by `emit` and
/// `wrap`, the two commands that write events themselves.
struct EngineTargetOptions: ParsableArguments {
    @Option(name: .customLong("events-socket"), help: "The daemon's push socket (default: the daemon's default).")
    var eventsSocket: String?

    @Option(help: "The engine identifier (1-64 characters of [A-Za-z0-9._-]).")
    var engine: String

    @Option(help: "private (default), shared or public.")
    var database: String?

    /// The socket to write to: the one given, else where the daemon listens by default.
    var socketPath: String { self.eventsSocket ?? DaemonConfiguration().eventsSocket }
}
