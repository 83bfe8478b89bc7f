import ArgumentParser
import Logging
import SyncmonCore
import SyncmonDaemon
import SyncmonHost
import SyncmonSources
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
import SyncmonWeb
#endif

/// `syncmon daemon`: the service.
///
/// Its options are thin: each takes its name and help from the setting's declaration
/// (``DaemonSetting``) and hands its text over as a ``SettingAssignment``, parsed, checked and
/// applied by the declaration. A test checks that every declared flag has its option here.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the daemon: take in engines' events, serve metrics and status.",
        discussion: """
            Engines write NDJSON events (protocol v1) to the push socket; syncmon keeps a setup / \
            import / export state machine per engine and database, decides when sync has stalled, \
            and reports through GET /metrics (Prometheus), GET /api/v1/status, journald and \
            systemd (Type=notify, watchdog, STATUS=).

            Settings come from the defaults, then the configuration file, then these flags (flags \
            win); each flag is also a key of the file, which adds \(SettingsReference.fileAdditions()) \
            (docs/configuration.md, syncmon(8)). SIGHUP re-reads the configuration file; SIGTERM \
            or SIGINT stops cleanly.

            Exit status: 64 for a bad flag or flag value, 78 for a bad configuration file, 73 when \
            the events socket or state directory is another daemon's, 77 when the state directory \
            is not this user's to write, 74 when its file system will not take writes (read-only, \
            full), 1 when the daemon cannot run otherwise.
            """
    )

    @Option(name: .setting(.listen), help: .setting(.listen)) var listen: [String] = []
    @Option(name: .setting(.webConfigFile), help: .setting(.webConfigFile)) var webConfigFile: String?
    @Option(name: .setting(.eventsSocket), help: .setting(.eventsSocket)) var eventsSocket: String?
    @Option(name: .setting(.subscribe), help: .setting(.subscribe)) var subscribe: [String] = []
    @Option(name: .setting(.canary), help: .setting(.canary)) var canary: [String] = []
    @Flag(name: .setting(.fromStart), help: .setting(.fromStart)) var fromStart = false
    // A number takes the next word even when it starts with "-": "-5" is refused as a number
    // (below zero), not read as an unknown flag leaving the option without its value.
    @Option(name: .setting(.maxEngines), parsing: .unconditional, help: .setting(.maxEngines)) var maximumPairs: String?
    @Option(name: .setting(.hostNetwork), help: .setting(.hostNetwork)) var hostNetwork: String?
    @Option(name: .setting(.stateDirectory), help: .setting(.stateDirectory)) var stateDirectory: String?
    @Option(name: .setting(.config), help: .setting(.config)) var configFile: String?
    @Option(name: .setting(.logTarget), help: .setting(.logTarget)) var logTarget: String?
    @Option(name: .setting(.logLevel), help: .setting(.logLevel)) var logLevel: String?
    @Option(name: .setting(.logFormat), help: .setting(.logFormat)) var logFormat: String?

    @OptionGroup(title: "Stall thresholds")
    var stallThresholds: StallThresholdOptions

    /// The settings given as flags, in the order of the declarations.
    var assignments: [SettingAssignment] {
        SettingAssignment.given(.listen, self.listen) + SettingAssignment.given(.webConfigFile, self.webConfigFile)
            + SettingAssignment.given(.eventsSocket, self.eventsSocket) + SettingAssignment.given(.subscribe, self.subscribe)
            + SettingAssignment.given(.canary, self.canary)
            + SettingAssignment.given(.fromStart, self.fromStart) + SettingAssignment.given(.maxEngines, self.maximumPairs)
            + SettingAssignment.given(.hostNetwork, self.hostNetwork) + SettingAssignment.given(.stateDirectory, self.stateDirectory)
            + SettingAssignment.given(.config, self.configFile) + SettingAssignment.given(.logTarget, self.logTarget)
            + SettingAssignment.given(.logLevel, self.logLevel) + SettingAssignment.given(.logFormat, self.logFormat)
            + self.stallThresholds.assignments
    }

    /// A bad flag value is a usage error (exit 64), before anything is read or started.
    func validate() throws {
        do {
            try SettingAssignment.check(self.assignments)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        let flags = self
        let load: @Sendable () throws -> DaemonConfiguration = { try flags.loadConfiguration() }
        let configuration: DaemonConfiguration
        do {
            configuration = try load()
        } catch {
            printError("syncmon daemon: \(error)")
            throw ExitCode(78)  // EX_CONFIG
        }
        let factory = LogHandlerFactory(target: configuration.logTarget, logLevel: configuration.logLevel, format: configuration.logFormat)
        LoggingSystem.bootstrap { factory.makeHandler(label: $0) }
        let logger = Logger(label: "syncmon")
        do {
            try await Daemon.run(
                load: load, logger: logger, logLevel: factory.level, version: SyncmonVersion.version, revision: SyncmonVersion.revision)
        } catch {
            // The journal gets a structured entry; on stderr the plain line below says it
            // once (a logfmt copy of it would print the same words twice).
            if factory.destination == .journald { logger.critical("syncmon cannot run", metadata: ["syncmon.reason": "\(error)"]) }
            printError("syncmon daemon: \(error)")
            // DaemonError's status (73 taken, 74 or 77 state directory, 78 configuration), else 1.
            throw ExitCode((error as? DaemonError)?.exitCode ?? 1)
        }
    }

    /// Defaults, then the configuration file, then the flags; then what only the whole can tell
    /// (unique source names, a source's credentials, the web configuration file).
    func loadConfiguration() throws -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        let flags = self.assignments
        // Not told: the first readable of the user's own file and the system's (docs/user-sessions.md).
        let path =
            self.configFile
            ?? DefaultPaths.configFiles(environment: DaemonConfiguration.processEnvironment, isRoot: getuid() == 0).first { access($0, R_OK) == 0 }
        if let path {
            var bytes: [UInt8] = []
            do {
                try ByteStream.read(path: path) { bytes.append(contentsOf: $0) }
            } catch {
                throw ValidationError("the configuration file: \(error); name a readable file with --config")
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                configuration = try ConfigFile.apply(text, to: configuration)
            } catch {
                throw ValidationError("\(path): \(error)")
            }
            configuration.configFile = path
        }
        do {
            try SettingAssignment.apply(flags, to: &configuration)
        } catch {
            throw ValidationError(error.message)
        }
        // Canaries (docs/canary.md): their folders are checked now, a bad one is exit 78.
        do throws(CanarySettingError) {
            _ = try CanarySetting.resolve(configuration.canaries, flags: configuration.canaryFlags)
        } catch {
            throw ValidationError(error.description)
        }
        // Notification routes (docs/notifications.md): a bad route is exit 78 naming its line.
        do throws(NotifySettingError) {
            _ = try NotifyRouteSetting.resolve(configuration.notifyRoutes, lines: configuration.sectionLines)
        } catch {
            throw ValidationError("\(configuration.configFile ?? "configuration"): \(error.description)")
        }
        // Each source is made once here, to find what it needs (a Syncthing source's key file, a
        // unit source's rules) before anything starts; the daemon makes its own at start.
        do throws(SourceCheckError) {
            try configuration.checkSources()
        } catch {
            throw ValidationError(error.description)
        }
        if let path = configuration.webConfigFile {
            // Loaded here, with the rest: a bad file is a configuration error at start (exit 78)
            // and a failed reload (the running one stays) on SIGHUP.
            do {
                configuration.web = try WebSecurity.load(path: path)
            } catch {
                throw ValidationError(error.description)
            }
        }
        return configuration
    }
}
