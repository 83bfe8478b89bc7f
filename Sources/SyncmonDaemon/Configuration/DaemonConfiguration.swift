import Logging
import SyncmonCore
import SyncmonHost
import SyncmonSources
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
import SyncmonWeb
#endif

/// Everything `syncmon daemon` runs with: built from defaults, then the configuration file, then
/// the command-line flags (flags win). Each setting's key, flag and parser are declared once in
/// ``DaemonSetting``.
package struct DaemonConfiguration: Sendable, Equatable {
    /// HTTP listen addresses (`host:port`; `[::1]:port` for IPv6).
    package var listen: [String] = [DefaultPaths.listenAddress]
    /// Whether the default listen address moves to the next free port when taken: a user's
    /// daemon beside a system one (docs/user-sessions.md). Never as root.
    package var movesOffTakenDefaultPort: Bool
    /// The push socket engines write events to.
    package var eventsSocket: String
    /// Streams to subscribe to (`unix:`, `http://`, `file:`), each named for its metrics label.
    package var subscribe: [String] = []
    /// `file:` sources without a saved offset start at the file's start instead of its end (`--from-start`).
    package var subscribeFromStart = false
    /// Where state is persisted.
    package var stateDirectory: String
    /// The configuration file, when one is used (re-read on SIGHUP).
    package var configFile: String? = nil
    /// Where the log goes (`--log-target`).
    package var logTarget = LogTarget.auto
    /// The lowest level logged (`--log-level`); a reload applies it to the running logger.
    package var logLevel = Logger.Level.info
    /// How stderr lines read (`--log-format`).
    package var logFormat = LogFormat.text
    /// Global stall thresholds, per-engine overrides and the pair limit.
    package var thresholds = StallThresholds.defaults
    /// Per-engine thresholds: only the reasons an engine's section sets; the rest follow the
    /// global values (so a global flag still reaches engines that did not set that reason).
    package var engineThresholds: [String: [StallReason: TimeSpan]] = [:]
    package var maximumPairs = 1000
    /// Who may report for an engine over the push socket (`allowed-users`, `allowed-groups`).
    package var peerPolicies: [String: PeerPolicy] = [:]
    /// What `[source NAME]` sections say, by source name.
    package var sourceSettings: [String: SourceSettings] = [:]
    /// Concurrent push connections (docs/configuration.md#limits).
    package var maximumConnections = 256
    /// The longest event line in bytes (docs/configuration.md#limits).
    package var maximumLineLength = 65_536
    /// The largest HTTP request head in bytes, and how long a request may take to arrive.
    package var maximumRequestHeadSize = 8192
    package var requestReadTimeout = TimeSpan.seconds(10 as Int64)
    /// How long state changes may wait before they are written (docs/operations.md#reliability: at most a second lost).
    package var persistInterval = TimeSpan.seconds(1 as Int64)
    /// How the host's own network view is learnt (`--host-network`).
    package var hostNetwork = HostNetworkMode.auto
    /// `--web.config.file` / `web-config-file`: TLS and basic auth for every listener.
    package var webConfigFile: String? = nil
    /// That file, loaded (by whoever builds the configuration, so a bad file stops the start
    /// and a reload like any other configuration error); nil serves plain HTTP to anyone.
    package var web: WebSecurity? = nil
    /// Canaries by `ENGINE/DATABASE` (`--canary`, `[canary …]` sections, docs/canary.md).
    package var canaries: [String: CanarySetting] = [:]
    /// `--canary ENGINE/DATABASE=PATH` values, which set (or override) those canaries' paths.
    package var canaryFlags: [String] = []
    /// Notification routes by name (`[notify NAME]` sections, docs/notifications.md).
    package var notifyRoutes: [String: NotifyRouteSetting] = [:]
    /// The line of each section's header in the configuration file, by `WORD NAME`: for errors
    /// about a section as a whole (a route without a target).
    package var sectionLines: [String: Int] = [:]

    /// Defaults for the current user and environment (docs/protocol.md#transports, docs/operations.md#systemd): systemd's
    /// `$RUNTIME_DIRECTORY`/`$STATE_DIRECTORY` first, then the system paths as root, then the
    /// user's XDG directories.
    package init(environment: [String: String] = DaemonConfiguration.processEnvironment, isRoot: Bool = getuid() == 0) {
        self.eventsSocket = DefaultPaths.daemonEventsSocket(environment: environment, isRoot: isRoot, userID: getuid())
        self.stateDirectory = DefaultPaths.stateDirectory(environment: environment, isRoot: isRoot)
        self.movesOffTakenDefaultPort = !isRoot
    }

    /// The defaults as the reference shows them: root's, outside systemd.
    package static let reference = DaemonConfiguration(environment: [:], isRoot: true)

    /// The process environment as a dictionary.
    package static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The state model's configuration.
    package var monitorConfiguration: MonitorConfiguration {
        var perEngine: [InlineName: StallThresholds] = [:]
        for (engine, overrides) in self.engineThresholds {
            guard let name = InlineName(engine) else { continue }
            var thresholds = self.thresholds
            for (reason, span) in overrides { thresholds[reason] = span }
            perEngine[name] = thresholds
        }
        var configuration = MonitorConfiguration(
            thresholds: self.thresholds,
            engineThresholds: perEngine,
            maximumPairs: self.maximumPairs,
            // Every cycle of every engine is logged at debug only: produce those changes only
            // when they will be written.
            reportsCycles: self.logLevel <= .debug
        )
        for (engine, policy) in self.peerPolicies {
            guard let name = InlineName(engine) else { continue }
            configuration.peerPolicies[name] = policy
        }
        return configuration
    }
}
