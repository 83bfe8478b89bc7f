import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

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
            SimulateCommand.self, RulesCommand.self, NotifyCommand.self,
        ]
    )

    /// argument-parser's own main, but a usage error's suggestion is revised first
    /// (``CommandLineSuggestion``).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try await Self.asyncParseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let message = Self.fullMessage(for: error)
            let revised = CommandLineSuggestion.revised(message, arguments: arguments, root: Self.self)
            guard revised != message else { Self.exit(withError: error) }
            printError(revised)
            Glibc.exit(Self.exitCode(for: error).rawValue)
        }
    }
}

/// The version stamped into the binary.
enum SyncmonVersion {
    static let version = "0.1.0"
    /// The source revision, stamped by the build when it knows it.
    static let revision = "unknown"
}
