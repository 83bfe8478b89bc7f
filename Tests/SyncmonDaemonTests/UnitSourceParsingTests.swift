import SyncmonCore
import SyncmonDaemon
import SyncmonSources
import Testing

/// `--subscribe NAME=unit:UNIT?…` and the `[source NAME]` form (docs/systemd-units.md).
@Suite("unit: sources: parsing")
struct UnitSourceParsingTests {
    @Test func queryFormParses() throws {
        let spec = try SourceSpec.parse("docs=unit:unison-docs.service?rules=unison&phase=export&database=photos")
        #expect(spec.name == "docs")
        #expect(spec.endpoint == .unit(UnitTarget(unit: "unison-docs.service", phases: [.export], database: Database("photos")!, rules: "unison")))
    }

    @Test func derivedNameAndDefaults() throws {
        let spec = try SourceSpec.parse("unit:restic-backup.timer")
        #expect(spec.name == "unit-restic-backup.timer")
        #expect(spec.endpoint == .unit(UnitTarget(unit: "restic-backup.timer")))
    }

    @Test(arguments: [
        ("unit:sshd.socket", "name a .service or a .timer"),
        ("unit:a.service?phase=sideways", "phase: import, export or both"),
        ("unit:a.service?rules=nosuchpack", "rules: a shipped pack"),
        ("unit:a.service?colour=blue", "unknown key colour"),
        ("unit:a.service?database=bad/name", "database:"),
    ])
    func badTargetsSayWhy(entry: String, message: String) {
        #expect {
            try SourceSpec.parse(entry)
        } throws: { error in
            (error as? SourceSpec.ParseError)?.message.contains(message) == true
        }
    }

    @Test func sectionFormAddsTheSourceWithItsKeys() throws {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)
        let text = "[source docs]\nunit = unison-docs.service\nrules = /etc/syncmon/rules/a&b.rules\nphase = import\n"
        let configuration = try ConfigFile.apply(text, to: base)
        let sources = try configuration.sources()
        #expect(sources.map(\.description) == ["docs=unit:unison-docs.service"])
        #expect(sources.map(\.endpoint) == [.unit(UnitTarget(unit: "unison-docs.service", phases: [.import], rules: "/etc/syncmon/rules/a&b.rules"))])
    }

    @Test func sectionFormChecksValuesWithTheirLine() {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)
        #expect {
            try ConfigFile.apply("[source docs]\nunit = a.service\nphase = sometimes\n", to: base)
        } throws: { error in
            (error as? ConfigFile.ParseError).map { $0.line == 3 && $0.message.contains("import, export or both, not sometimes") } == true
        }
    }

    @Test(
        "a section's phase, database and rules apply to the unit source of its name, however it is declared",
        arguments: [
            (
                "subscribe = docs=unit:a.service?phase=export\n[source docs]\ndatabase = photos\n",
                UnitTarget(unit: "a.service", phases: [.export], database: Database("photos")!)
            ),
            ("[source docs]\nunit = a.service?phase=import\nphase = export\n", UnitTarget(unit: "a.service", phases: [.export])),
            ("[source docs]\nrules = unison\nunit = a.service\n", UnitTarget(unit: "a.service", rules: "unison")),
        ])
    func sectionKeysApply(text: String, expected: UnitTarget) throws {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)
        let configuration = try ConfigFile.apply(text, to: base)
        #expect(try configuration.sources().map(\.endpoint) == [.unit(expected)])
    }

    @Test(
        "a unit source's engine runs without not_syncing unless it is configured; other engines keep theirs",
        arguments: [
            ("[source docs]\nunit = a.service\n", "docs", TimeSpan?.some(.zero)),
            ("[source docs]\nunit = a.service\n[engine docs]\nnot-syncing-after = 5m\n", "docs", .seconds(Int64(300))),
            ("subscribe = docs=unit:a.service\n", "docs", .zero),
            ("subscribe = notes=file:/var/log/notes.jsonl\n", "notes", nil),
        ])
    func notSyncingOffForUnits(text: String, engine: String, expected: TimeSpan?) throws {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)
        var configuration = try ConfigFile.apply(text, to: base)
        try configuration.checkSources()
        #expect(configuration.engineThresholds[engine]?[.notSyncing] == expected)
    }
}
