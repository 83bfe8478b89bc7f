import ArgumentParser
import Logging
import SyncmonCore
import SyncmonDaemon
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// `syncmon daemon`: the service.
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
            win). SIGHUP re-reads the configuration file; SIGTERM or SIGINT stops cleanly.

            Defaults: --events-socket is $RUNTIME_DIRECTORY/events.sock under systemd, \
            /run/syncmon/events.sock as root, else $XDG_RUNTIME_DIR/syncmon/events.sock; \
            --state-dir is $STATE_DIRECTORY, /var/lib/syncmon as root, else \
            ~/.local/state/syncmon; --config is /etc/syncmon/syncmon.conf when it exists.
            """
    )

    @Option(name: .customLong("listen"), help: "HTTP address host:port (repeatable; default 127.0.0.1:9478).")
    var listen: [String] = []

    @Option(name: .customLong("events-socket"), help: "The push socket engines write events to.")
    var eventsSocket: String?

    @Option(name: .customLong("subscribe"), help: "An engine stream to follow: unix:/path, http://host:port/path or file:/path (repeatable).")
    var subscribe: [String] = []

    @Flag(name: .customLong("from-start"), help: "Read file: sources without a saved offset from their start, not their end.")
    var fromStart = false

    @Option(name: .customLong("state-dir"), help: "Where state is kept across restarts.")
    var stateDirectory: String?

    @Option(name: .customLong("config"), help: "The configuration file (key = value lines; see docs/configuration.md).")
    var configFile: String?

    @Option(
        name: .customLong("log-target"),
        help: """
            auto, journald or stderr. auto: journald when started by systemd ($JOURNAL_STREAM names \
            stderr) or when stderr is not a terminal and journald runs; stderr in a terminal.
            """
    )
    var logTarget: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(name: .customLong("max-engines"), help: "The most (engine, database) pairs tracked (default 1000).")
    var maximumPairs: Int?

    @Option(
        name: .customLong("host-network"),
        help: ArgumentHelp(
            "auto, off, online or offline. auto: follow the host's network through rtnetlink, for engines that never report networkStatus; off: do not (their network stays unknown); online/offline: a fixed view, for tests and demos.",
            valueName: "mode"
        )
    )
    var hostNetwork: String?

    @Option(
        name: .customLong("web.config.file"),
        help: ArgumentHelp(
            "A web configuration in the Prometheus exporter-toolkit format (as node_exporter's --web.config.file): tls_server_config turns every listener into HTTPS, basic_auth_users asks for a password on every path. Re-read on SIGHUP; a bad file stops the start (exit 78).",
            valueName: "path"
        )
    )
    var webConfigFile: String?

    @OptionGroup(title: "Stall thresholds")
    var stallThresholds: StallThresholdOptions

    static let defaultConfigFile = "/etc/syncmon/syncmon.conf"

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
        let level = Logger.Level(rawValue: configuration.logLevel) ?? .info
        let target = LogTarget(rawValue: configuration.logTarget) ?? .auto
        let factory = LogHandlerFactory(target: target, logLevel: level)
        LoggingSystem.bootstrap { factory.makeHandler(label: $0) }
        let logger = Logger(label: "syncmon")
        do {
            try await Daemon.run(load: load, logger: logger, version: SyncmonVersion.version, revision: SyncmonVersion.revision)
        } catch {
            logger.critical("syncmon cannot run", metadata: ["syncmon.reason": "\(error)"])
            printError("syncmon daemon: \(error)")
            throw ExitCode(1)
        }
    }

    /// Defaults, then the configuration file, then the flags.
    func loadConfiguration() throws -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        let path = self.configFile ?? (access(Self.defaultConfigFile, R_OK) == 0 ? Self.defaultConfigFile : nil)
        if let path {
            let text: String
            do {
                var bytes: [UInt8] = []
                try ByteStream.read(path: path) { bytes.append(contentsOf: $0) }
                text = String(decoding: bytes, as: UTF8.self)
            }
            do {
                configuration = try ConfigFile.apply(text, to: configuration)
            } catch {
                throw ValidationError("\(path): \(error)")
            }
            configuration.configFile = path
        }
        if !self.listen.isEmpty { configuration.listen = self.listen }
        if let eventsSocket = self.eventsSocket { configuration.eventsSocket = eventsSocket }
        if !self.subscribe.isEmpty { configuration.subscribe = self.subscribe }
        if self.fromStart { configuration.subscribeFromStart = true }
        if let stateDirectory = self.stateDirectory { configuration.stateDirectory = stateDirectory }
        if let logTarget = self.logTarget { configuration.logTarget = logTarget }
        if let logLevel = self.logLevel { configuration.logLevel = logLevel }
        if let maximumPairs = self.maximumPairs { configuration.maximumPairs = maximumPairs }
        if let hostNetwork = self.hostNetwork {
            guard let mode = HostNetworkMode(rawValue: hostNetwork) else {
                throw ValidationError("--host-network must be auto, off, online or offline, not \(hostNetwork)")
            }
            configuration.hostNetwork = mode
        }
        if let webConfigFile = self.webConfigFile { configuration.webConfigFile = webConfigFile }
        configuration.thresholds = self.stallThresholds.applied(to: configuration.thresholds)
        guard LogTarget(rawValue: configuration.logTarget) != nil else {
            throw ValidationError("--log-target must be auto, journald or stderr, not \(configuration.logTarget)")
        }
        guard Logger.Level(rawValue: configuration.logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical")
        }
        guard configuration.maximumPairs > 0 else { throw ValidationError("--max-engines must be positive") }
        do {
            // Each source is made once here, to find what it needs (a Syncthing source's key
            // file) before anything starts; the daemon makes its own at start.
            for spec in try SourceSpec.parseAll(configuration.subscribe) where spec.needsCredential {
                try spec.checkRequirements(configuration: configuration)
            }
        } catch let error as SourceSpec.ParseError {
            throw ValidationError(error.description)
        } catch {
            throw ValidationError("\(error)")
        }
        // A unit: source's rules are checked now: a problem stops the start naming file and line.
        for spec in (try? SourceSpec.parseAll(configuration.subscribe)) ?? [] where spec.endpoint.scheme == "unit" {
            do { try spec.checkRequirements(configuration: configuration) } catch {
                printError("syncmon daemon: \(spec.name): \(error)")
                throw ExitCode(78)  // EX_CONFIG
            }
            // A unit's setup carries only its failures, so not_syncing means nothing for it (SPEC §10.3).
            if configuration.engineThresholds[spec.name]?[.notSyncing] == nil {
                configuration.engineThresholds[spec.name, default: [:]][.notSyncing] = .seconds(Int64(0))
            }
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
