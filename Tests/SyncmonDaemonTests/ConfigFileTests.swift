import Foundation
import Logging
import SyncmonCore
import SyncmonDaemon
import SyncmonSources
import SyncmonSystemd
import Testing

/// `ConfigFile.apply`: the configuration file's keys, sections and errors.
@Suite("Configuration file")
struct ConfigFileTests {
    /// A base configuration independent of the test environment.
    let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)

    func apply(_ text: String) throws(ConfigFile.ParseError) -> DaemonConfiguration {
        try ConfigFile.apply(text, to: self.base)
    }

    @Test("every scalar key sets its setting; comments and blank lines are skipped")
    func scalarKeys() throws {
        let configuration = try self.apply(
            """
            # a comment
            ; another comment

            events-socket = /run/x/events.sock
            state-dir = "/var/lib/x"
            log-target = journald
            log-level=debug
            max-engines = 12
            max-connections = 7
            not-syncing-after = 2m
            no-progress-after = 90s
            pending-not-draining-after = 1h
            retry-loop-after = 0
            no-recent-import-after = 1d
            """
        )
        #expect(configuration.eventsSocket == "/run/x/events.sock")
        #expect(configuration.stateDirectory == "/var/lib/x")
        #expect(configuration.logTarget == .journald)
        #expect(configuration.logLevel == .debug)
        #expect(configuration.maximumPairs == 12)
        #expect(configuration.maximumConnections == 7)
        #expect(configuration.thresholds.notSyncing == .seconds(120 as Int64))
        #expect(configuration.thresholds.noProgress == .seconds(90 as Int64))
        #expect(configuration.thresholds.pendingNotDraining == .seconds(3600 as Int64))
        #expect(configuration.thresholds.retryLoop == .zero)
        #expect(configuration.thresholds.noRecentImport == .seconds(86_400 as Int64))
        // Untouched settings keep the base values.
        #expect(configuration.listen == self.base.listen)
        #expect(configuration.subscribe == [])
        #expect(configuration.engineThresholds.isEmpty)
    }

    @Test("from-start takes true or false, and nothing else")
    func fromStart() throws {
        #expect(try self.apply("from-start = true").subscribeFromStart)
        #expect(try !self.apply("from-start = true\nfrom-start = no").subscribeFromStart)
        let error = #expect(throws: ConfigFile.ParseError.self) { try self.apply("from-start = maybe") }
        #expect(error?.description == #"line 1: from-start: "maybe" is not true or false; write true or false (or yes/no, 1/0)"#)
    }

    @Test("host-network takes auto, off, online or offline; auto is the default")
    func hostNetwork() throws {
        #expect(self.base.hostNetwork == .auto)
        for mode in HostNetworkMode.allCases {
            #expect(try self.apply("host-network = \(mode.rawValue)").hostNetwork == mode)
        }
        let error = #expect(throws: ConfigFile.ParseError.self) { try self.apply("host-network = yes") }
        #expect(error?.description == #"line 1: host-network: "yes" is not a mode; write auto, off, online or offline"#)
    }

    @Test("an empty file changes nothing")
    func emptyFile() throws {
        #expect(try self.apply("") == self.base)
        #expect(try self.apply("\n\n# only comments\n") == self.base)
    }

    @Test("listen and subscribe are repeatable and replace the defaults")
    func repeatableKeys() throws {
        let configuration = try self.apply(
            """
            listen = 127.0.0.1:1000
            subscribe = unix:/run/a.sock
            listen = [::1]:1001
            subscribe = http://127.0.0.1:8080/events
            subscribe = file:/var/log/b.jsonl
            """
        )
        #expect(configuration.listen == ["127.0.0.1:1000", "[::1]:1001"])
        #expect(configuration.subscribe == ["unix:/run/a.sock", "http://127.0.0.1:8080/events", "file:/var/log/b.jsonl"])
    }

    @Test("a trailing carriage return and surrounding whitespace are ignored")
    func whitespace() throws {
        let configuration = try self.apply("  log-level \t=  warning  \r\n\tstate-dir = /s\r\n")
        #expect(configuration.logLevel == .warning)
        #expect(configuration.stateDirectory == "/s")
    }

    @Test("[engine NAME] sections set per-engine thresholds only for that engine")
    func engineSections() throws {
        let configuration = try self.apply(
            """
            not-syncing-after = 2m

            [engine photos]
            no-progress-after = 30m
            no-recent-import-after = 6h

            [engine notes.v2]
            not-syncing-after = 10s
            """
        )
        #expect(configuration.thresholds.notSyncing == .seconds(120 as Int64))
        #expect(configuration.thresholds.noProgress == StallThresholds.defaults.noProgress)
        #expect(configuration.engineThresholds["photos"] == [.noProgress: .seconds(1800 as Int64), .noRecentImport: .seconds(21_600 as Int64)])
        #expect(configuration.engineThresholds["notes.v2"] == [.notSyncing: .seconds(10 as Int64)])
        #expect(configuration.engineThresholds["other"] == nil)
    }

    @Test("an empty section still names the engine, with no overrides")
    func emptySection() throws {
        let configuration = try self.apply("[engine quiet]\n")
        #expect(configuration.engineThresholds["quiet"] == [:])
        let monitor = configuration.monitorConfiguration
        #expect(monitor.thresholds(for: InlineName("quiet")!) == configuration.thresholds)
    }

    @Test("per-engine thresholds keep following global values (and later flags) for reasons they do not set")
    func perEngineFollowsGlobal() throws {
        var configuration = try self.apply(
            """
            not-syncing-after = 2m
            [engine photos]
            no-progress-after = 30m
            """
        )
        // Command-line flags are applied after the file, to the global thresholds.
        configuration.thresholds.notSyncing = .seconds(5 as Int64)
        configuration.thresholds.retryLoop = .seconds(42 as Int64)
        let monitor = configuration.monitorConfiguration
        let photos = monitor.thresholds(for: InlineName("photos")!)
        #expect(photos.noProgress == .seconds(1800 as Int64))
        #expect(photos.notSyncing == .seconds(5 as Int64))
        #expect(photos.retryLoop == .seconds(42 as Int64))
        #expect(photos.pendingNotDraining == StallThresholds.defaults.pendingNotDraining)
        // Engines without a section get the global values, including the flags.
        let other = monitor.thresholds(for: InlineName("other")!)
        #expect(other == configuration.thresholds)
        #expect(other.noProgress == StallThresholds.defaults.noProgress)
    }

    @Test("[source NAME] sections give a source its API key file; engine sections after them are engine sections")
    func sourceSections() throws {
        let configuration = try self.apply(
            """
            subscribe = a=syncthing+http://127.0.0.1:8384
            [source a]
            api-key-file = /etc/syncmon/a.key
            [engine a]
            no-progress-after = 9s
            [source b]
            """
        )
        #expect(configuration.sourceSettings["a"] == SourceSettings(apiKeyFile: "/etc/syncmon/a.key"))
        #expect(configuration.sourceSettings["b"] == SourceSettings())
        #expect(configuration.engineThresholds["a"]?[.noProgress] == .seconds(9 as Int64))
    }

    @Test("allowed-users and allowed-groups take names or ids, resolved when the file is read")
    func peerPolicies() throws {
        let configuration = try self.apply(
            """
            [engine payroll]
            allowed-users = root, 1001
            allowed-groups = root 2000
            """
        )
        #expect(configuration.peerPolicies["payroll"] == PeerPolicy(users: [0, 1001], groups: [0, 2000]))
        #expect(configuration.monitorConfiguration.peerPolicies[InlineName("payroll")!] == PeerPolicy(users: [0, 1001], groups: [0, 2000]))
        let error = #expect(throws: ConfigFile.ParseError.self) { try self.apply("[engine a]\nallowed-users = no-such-user-here\n") }
        #expect(error?.message.contains("no user named no-such-user-here") == true)
        #expect(throws: ConfigFile.ParseError.self) { try self.apply("allowed-users = root\n") }
    }

    @Test(
        "the flag name of each threshold is the file key",
        arguments: [
            (StallReason.notSyncing, "not-syncing-after"),
            (.noProgress, "no-progress-after"),
            (.pendingNotDraining, "pending-not-draining-after"),
            (.retryLoop, "retry-loop-after"),
            (.noRecentImport, "no-recent-import-after"),
            (.noRecentExport, "no-recent-export-after"),
        ])
    func flagNames(reason: StallReason, flag: String) throws {
        #expect(ConfigFile.flag(for: reason) == flag)
        let configuration = try self.apply("\(flag) = 7s")
        #expect(configuration.thresholds[reason] == .seconds(7 as Int64))
    }

    @Test(
        "mistakes are errors naming the line",
        arguments: [
            ("log-level = info\nlisten-address = 1.2.3.4:5\n", 2, "unknown setting listen-address"),
            (
                "\n\nnot-syncing-after = soon\n", 3,
                #"not-syncing-after: "soon" is not a duration; write a number with a unit (250ms, 30s, 5m, 1h30m, 1.5h, 2d) or plain seconds (90); 0 disables the detector"#
            ),
            ("no-progress-after = -5s\n", 1, "not a duration"),
            ("retry-loop-after = 5 minutes\n", 1, "not a duration"),
            ("[engine photos\n", 1, "unterminated section header"),
            ("# c\n[service]\n", 2, "sections are written [engine NAME], [source NAME], [canary ENGINE/DATABASE] or [notify NAME]"),
            ("[engine]\n", 1, "sections are written [engine NAME]"),
            ("[engine a b]\n", 1, "sections are written [engine NAME]"),
            ("[source -bad]\n", 1, "invalid source name -bad"),
            ("[source a]\napi-key-file = relative/key\n", 2, #"api-key-file: "relative/key" is not an absolute path"#),
            ("[source a]\nno-progress-after = 5s\n", 2, "cannot be set per source"),
            ("api-key-file = /k\n", 1, "unknown setting api-key-file here: it belongs in [source NAME] sections"),
            ("[engine bad/name]\n", 1, "invalid engine name bad/name"),
            ("[engine \(String(repeating: "x", count: 65))]\n", 1, "invalid engine name"),
            ("[engine photos]\nlisten = 127.0.0.1:1\n", 2, "cannot be set per engine"),
            ("[engine photos]\nallowed-groups = no-such-group-here\n", 2, "no group named no-such-group-here"),
            ("[engine photos]\nbogus = 1\n", 2, "cannot be set per engine"),
            ("just words\n", 1, "expected key = value"),
            ("max-engines = 0\n", 1, #"max-engines: "0" is not a positive number; write a whole number above 0"#),
            ("max-connections = many\n", 1, #"max-connections: "many" is not a positive number"#),
            ("no-progres-after = 5m\n", 1, "unknown setting no-progres-after (did you mean no-progress-after?)"),
            ("[engine a]\nallowed-user = root\n", 2, "(did you mean allowed-users?)"),
            (
                "[source a]\napi-key = /k\n", 2,
                "api-key cannot be set per source (only api-key-file, unit, phase, database, rules and user can) (did you mean api-key-file?)"
            ),
            ("lisen = 127.0.0.1:1\n", 1, "unknown setting lisen (did you mean listen?)"),
            ("frobnicate = 1\n", 1, "unknown setting frobnicate"),
            ("listen =\n", 1, "listen: empty; write host:port"),
            ("\nlisten = 127.0.0.1:99999\n", 2, #"listen: "127.0.0.1:99999": the port 99999 is out of range; write a port from 1 to 65535"#),
            ("listen = 127.0.0.1\n", 1, #"listen: "127.0.0.1" has no port; write host:port, [ipv6]:port, or :port for every IPv4 interface"#),
            ("listen = :http\n", 1, #"listen: ":http": the port "http" is not a number"#),
            ("listen = ::1:9478\n", 1, "an IPv6 address goes in brackets, [::1]:9478"),
            ("listen = [::1:9478\n", 1, "unbalanced brackets"),
            ("subscribe = ftp://x\n", 1, "subscribe: \"ftp://x\":"),
            ("log-level = loud\n", 1, #"log-level: "loud" is not a level; write trace, debug, info, notice, warning, error or critical"#),
        ])
    func errors(text: String, line: Int, message: String) {
        let error = #expect(throws: ConfigFile.ParseError.self) { try self.apply(text) }
        #expect(error?.line == line)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.hasPrefix("line \(line): ") == true)
    }

    @Test("the wrap recipes' job sections (deploy/systemd/wrap/syncmon-jobs.conf, docs/wrap.md) parse, per engine")
    func wrapRecipeSections() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/systemd/wrap/syncmon-jobs.conf")
        let configuration = try self.apply(try String(contentsOf: path, encoding: .utf8))
        #expect(configuration.engineThresholds["restic-home"]?[.noRecentExport] == TimeSpan.seconds(Int64(26 * 3600)))
        #expect(configuration.engineThresholds["restic-home"]?[.noProgress] == TimeSpan.seconds(Int64(600)))
        #expect(configuration.engineThresholds["photos-offsite"]?[.noRecentExport] == TimeSpan.seconds(Int64(13 * 3600)))
        #expect(configuration.engineThresholds["www-mirror"]?[.noRecentImport] == TimeSpan.seconds(Int64(3 * 3600)))
        // Per engine only: the global dead man's switch stays off for every other engine.
        #expect(configuration.thresholds.noRecentExport == .zero)
    }
}

/// The "did you mean" of an unknown key.
@Suite("Nearest setting name")
struct NearestSettingTests {
    @Test(
        "a likely typo suggests the key, an unrelated word nothing",
        arguments: [
            ("no-progres-after", "no-progress-after"), ("noprogress-after", "no-progress-after"), ("max-engine", "max-engines"),
            ("log-levle", "log-level"), ("listn", "listen"), ("host-netwrk", "host-network"), ("frobnicate", nil),
            ("x", nil), ("log", nil),
        ] as [(String, String?)])
    func suggestion(typed: String, expected: String?) {
        let error = #expect(throws: ConfigFile.ParseError.self) {
            try ConfigFile.apply("\(typed) = 1\n", to: DaemonConfiguration(environment: [:], isRoot: false))
        }
        let message = error?.message ?? ""
        if let expected {
            #expect(message.hasSuffix("(did you mean \(expected)?)"), "\(message)")
        } else {
            #expect(!message.contains("did you mean"), "\(message)")
        }
    }
}
