import ArgumentParser

/// The `syncmon` command: a thin front over the library targets.
@main
struct Syncmon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "syncmon",
        abstract: "Watch sync engines: setup, import and export state, stalls, Prometheus metrics.",
        discussion: """
            syncmon takes in sync engines' event streams (the vocabulary of CKSyncEngine and \
            NSPersistentCloudKitContainer events), keeps a setup / import / export state machine per \
            engine and database, and decides when sync has silently stopped.
            """,
        version: SyncmonVersion.version,
        subcommands: [
            DaemonCommand.self, StatusCommand.self, EmitCommand.self, WrapCommand.self, ForgetCommand.self, ReplayCommand.self,
            SimulateCommand.self, RulesCommand.self,
        ]
    )
}

/// The version stamped into the binary.
enum SyncmonVersion {
    static let version = "0.1.0"
    /// The source revision, stamped by the build when it knows it.
    static let revision = "unknown"
}
