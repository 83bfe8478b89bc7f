import Logging
import SyncmonCore
import SyncmonSources
import SyncmonSystemd

/// Every setting of `syncmon daemon`. Its flag's help, file key, sections, errors, reload
/// behaviour and reference follow from its declaration here.
///
/// Adding a setting:
/// 1. its value in ``DaemonConfiguration`` (the property's initial value is the default);
/// 2. its declaration below, and in ``all`` where help and the reference should list it:
///    `static let logFormat = DaemonSetting("log-format", .choice("FORMAT"), reload: .restart,
///    summary: "…", .global(\DaemonConfiguration.logFormat))`; `flag: .none` for a file-only key,
///    `.list(\.x)` for a repeatable one, a `SettingValue` of its own for a new kind of value;
/// 3. with a flag, its option in `DaemonCommand` (one line) and its `SettingAssignment.given`
///    there (DaemonOptionsTests fails until both are there);
/// 4. its use;
/// 5. `SYNCMON_WRITE_REFERENCE=1 swift test --filter SettingsReferenceTests` to rewrite the
///    man page's, configuration.md's and the example file's parts; read the diff.
///
/// A key of a section: a declaration with `flag: .none` and a `.section(.source, set:, table:)`
/// target that stores the value for the section's name. A new kind of section: a
/// ``ConfigSection`` (its word, name check and examples) named by its keys' targets.
extension DaemonSetting {
    /// Every setting, in the order of help and the reference.
    package static let all: [DaemonSetting] =
        [.listen, .webConfigFile, .eventsSocket, .subscribe, .canary, .fromStart, .maxConnections, .maxEngines, .hostNetwork]
        + [.stateDirectory, .config, .logTarget, .logLevel, .logFormat]
        + StallReason.thresholdReasons.map(DaemonSetting.threshold)
        + [.allowedUsers, .allowedGroups, .apiKeyFile, .sourceUnit, .sourcePhase, .sourceDatabase, .sourceRules, .sourceUser]
        + DaemonSetting.canarySettings
        + DaemonSetting.notifySettings

    /// The setting whose file key or flag is `name` (`no-progress-after`, `--web.config.file`).
    package static func named(_ name: String) -> DaemonSetting? {
        Self.all.first { $0.key == name || $0.flag == name }
    }

    // MARK: HTTP

    package static let listen = DaemonSetting(
        "listen",
        .listenAddress,
        reload: .restart,
        summary: "HTTP address for /metrics, /healthz and /api/v1/status (repeatable).",
        details:
            "`[::1]:9478` for IPv6; `:9478` for every IPv4 interface. A user's daemon left on the default moves to the next free port from 9479 when 9478 is taken (a system syncmon), says so in the log, and writes its URL beside its push socket (`http-url`), where `syncmon status` finds it.",
        .list(\.listen)
    )

    package static let webConfigFile = DaemonSetting(
        "web-config-file",
        flag: .named("--web.config.file"),
        .text("PATH", accepted: "the path of a web configuration file"),
        example: "/etc/syncmon/web.yml",
        reload: .newConnections,
        summary: "TLS and basic auth for every listener, in the Prometheus exporter-toolkit web configuration format.",
        details: """
            As node_exporter's `--web.config.file`: `tls_server_config` makes every listener serve \
            HTTPS, `basic_auth_users` (user: bcrypt hash) asks for a password on every path. \
            Relative paths in it are relative to the file. Re-read on reload: a rotated certificate \
            serves new connections at once, and a bad file keeps the running settings.
            """,
        .global(\.webConfigFile)
    )

    // MARK: Event input

    package static let eventsSocket = DaemonSetting(
        "events-socket",
        .text("PATH", accepted: "the path of a Unix socket"),
        default: "$RUNTIME_DIRECTORY/events.sock under systemd, /run/syncmon/events.sock as root, else $XDG_RUNTIME_DIR/syncmon/events.sock",
        example: "/run/syncmon/events.sock",
        reload: .restart,
        summary: "The push socket engines write NDJSON events to (mode 0660).",
        details: """
            Without `XDG_RUNTIME_DIR`, `/tmp/syncmon-UID/syncmon/events.sock`. Ignored when systemd \
            passes the socket in (`syncmon.socket`).
            """,
        .global(\.eventsSocket)
    )

    package static let subscribe = DaemonSetting(
        "subscribe",
        .source,
        example: "notes=unix:/run/notes/events.sock",
        reload: .restart,
        summary: """
            An engine stream to follow (repeatable): [NAME=]URL, URL being unix:/path, \
            http(s)://host:port/path, file:/path or syncthing+http(s)://host:port (its API key \
            from systemd's credentials or a [source NAME] section).
            """,
        details: """
            `unix:` is a socket the engine serves lines on, `http(s)://` a streaming GET of NDJSON \
            or server-sent events, `file:` an append-only JSONL file, `syncthing+http(s)://` a \
            Syncthing's REST API. `NAME` names the source in metrics and its `[source NAME]` \
            section; without it one is derived from the URL.
            """,
        .list(\.subscribe)
    )

    package static let fromStart = DaemonSetting(
        "from-start",
        flag: .onOff,
        .boolean,
        reload: .restart,
        summary: "Read file: sources that have no saved offset yet from their start, not their end.",
        .global(\.subscribeFromStart)
    )

    package static let maxConnections = DaemonSetting(
        "max-connections",
        flag: .none,
        .positiveInteger,
        reload: .restart,
        summary: "The most concurrent push connections; more are closed at once, with a warning.",
        .global(\.maximumConnections)
    )

    package static let maxEngines = DaemonSetting(
        "max-engines",
        .positiveInteger,
        reload: .atOnce,
        summary: "The most (engine, database) pairs tracked; lines for more are rejected (engine_limit).",
        details: "Lowering it below the pairs tracked keeps them; new pairs are rejected until there are fewer.",
        .global(\.maximumPairs)
    )

    package static let hostNetwork = DaemonSetting(
        "host-network",
        .choice("MODE"),
        reload: .restart,
        summary: "The host's own network view, for engines that never report networkStatus: auto, off, online or offline.",
        details: """
            `auto` follows it through rtnetlink (online while a default route runs through an \
            interface that is up with carrier); `off` does not, and those engines' network stays \
            `unknown`; `online` and `offline` fix it, for tests and demos. Shown as \
            `syncmon_host_network_up`.
            """,
        .global(\DaemonConfiguration.hostNetwork)
    )

    // MARK: State and logs

    package static let stateDirectory = DaemonSetting(
        "state-dir",
        .text("DIR", accepted: "a directory path"),
        default: "$STATE_DIRECTORY under systemd, /var/lib/syncmon as root, else $XDG_STATE_HOME/syncmon or ~/.local/state/syncmon",
        example: "/var/lib/syncmon",
        reload: .restart,
        summary: "Where state.json and the subscribe sources' resume points are kept across restarts.",
        .global(\.stateDirectory)
    )

    package static let config = DaemonSetting(
        "config",
        .text("PATH", accepted: "the path of a configuration file"),
        default: "the first readable of $XDG_CONFIG_HOME/syncmon/syncmon.conf (not as root) and /etc/syncmon/syncmon.conf",
        example: "/etc/syncmon/syncmon.conf",
        reload: .atOnce,
        summary: "The configuration file: key = value lines and sections (docs/configuration.md).",
        details: "Re-read on SIGHUP. A file named here that cannot be read is a configuration error (exit 78).",
        inFile: false,
        .global(\.configFile)
    )

    package static let logTarget = DaemonSetting(
        "log-target",
        .choice("TARGET"),
        reload: .restart,
        summary: "Where the log goes: auto, journald or stderr.",
        details: """
            `auto`: journald when systemd started the daemon (`$JOURNAL_STREAM` names its stderr), \
            stderr when stderr is a terminal, else journald when /run/systemd/journal/socket exists, \
            else stderr.
            """,
        .global(\DaemonConfiguration.logTarget)
    )

    package static let logFormat = DaemonSetting(
        "log-format",
        .choice("FORMAT"),
        example: "logfmt",
        reload: .restart,
        summary: "How log lines on stderr read: text or logfmt.",
        details: """
            `text`: one line a person reads at 80 columns, `2026-11-25T16:02:21.123Z warning a/shared: \
            sync stalled (no_progress)`, other fields only at `debug`; `logfmt`: every field, for \
            machines. The journal gets its structured fields whatever this says.
            """,
        .global(\DaemonConfiguration.logFormat)
    )

    package static let logLevel = DaemonSetting(
        "log-level",
        .choice("LEVEL"),
        reload: .atOnce,
        summary: "The lowest level logged: trace, debug, info, notice, warning, error or critical.",
        details: "At `debug` and `trace` every sync cycle of every engine is logged.",
        .global(\DaemonConfiguration.logLevel)
    )

    // MARK: Stall thresholds

    /// The stall threshold of `reason`: `--no-progress-after`, also per engine.
    package static func threshold(_ reason: StallReason) -> DaemonSetting {
        let summary: String
        switch reason {
        case .notSyncing: summary = "Stall (not_syncing) when setup succeeded but no import started for this long."
        case .noProgress: summary = "Stall (no_progress) when a phase is in progress without a progress event for this long."
        case .pendingNotDraining: summary = "Stall (pending_not_draining) when changes are pending and no export succeeded for this long."
        case .retryLoop: summary = "Stall (retry_loop) when transient errors keep arriving and nothing succeeded for this long."
        case .noRecentImport: summary = "Stall (no_recent_import) when no import succeeded for this long."
        case .noRecentExport:
            summary = "Stall (no_recent_export) when no export succeeded for this long: the dead man's switch of a backup or mirror job."
        case .canaryLate:
            // Not a threshold of its own (thresholdReasons leaves it out): each canary's late-after.
            summary = "Stall (canary_late): see late-after in [canary ENGINE/DATABASE]."
        }
        return DaemonSetting(
            ConfigFile.flag(for: reason),
            .threshold,
            reload: .atOnce,
            summary: summary + " 0 turns it off.",
            details: reason == .noRecentExport ? "Usually set per engine rather than for every engine." : "",
            .global(\.thresholds[reason]),
            .section(
                .engine,
                set: { configuration, engine, span in configuration.engineThresholds[engine, default: [:]][reason] = span },
                table: { AnyHashable($0.engineThresholds.mapValues { $0[reason] }) }
            )
        )
    }

    // MARK: Per engine

    package static let allowedUsers = DaemonSetting(
        "allowed-users",
        flag: .none,
        .accounts(groups: false),
        example: "backup, 1042",
        reload: .atOnce,
        summary: "Who may send this engine's events over the push socket, by user (root always may).",
        details: "Names are resolved when the file is read; an unknown name is an error. Lines add up.",
        .section(
            .engine,
            set: { configuration, engine, ids in configuration.peerPolicies[engine, default: PeerPolicy()].users.formUnion(ids) },
            table: { AnyHashable($0.peerPolicies.mapValues(\.users)) }
        )
    )

    package static let allowedGroups = DaemonSetting(
        "allowed-groups",
        flag: .none,
        .accounts(groups: true),
        example: "backup",
        reload: .atOnce,
        summary: "Who may send this engine's events over the push socket, by primary group.",
        details: "Names are resolved when the file is read; an unknown name is an error. Lines add up.",
        .section(
            .engine,
            set: { configuration, engine, ids in configuration.peerPolicies[engine, default: PeerPolicy()].groups.formUnion(ids) },
            table: { AnyHashable($0.peerPolicies.mapValues(\.groups)) }
        )
    )

    // MARK: Per source

    package static let apiKeyFile = DaemonSetting(
        "api-key-file",
        flag: .none,
        .absolutePath,
        example: "/etc/syncmon/syncthing-a.key",
        reload: .restart,
        summary: "A file whose first line is the source's API key (Syncthing).",
        details: """
            Used when systemd's credential directory has no file named NAME (`LoadCredential=` is \
            the better way). Read when the source connects, so a new key in the same file takes \
            effect at the next reconnect; never logged.
            """,
        .section(
            .source,
            set: { configuration, source, path in configuration.sourceSettings[source, default: SourceSettings()].apiKeyFile = path },
            table: { AnyHashable($0.sourceSettings.compactMapValues(\.apiKeyFile)) }
        )
    )
}
