import SyncmonCore
import SyncmonDaemon
import Testing

/// `--subscribe NAME=unit:UNIT?…` and the `[source NAME]` form (SPEC §10.3).
@Suite("unit: sources: parsing")
struct UnitSourceParsingTests {
    @Test func queryFormParses() throws {
        let spec = try SourceSpec.parse("docs=unit:unison-docs.service?rules=unison&phase=export&database=photos")
        #expect(spec.name == "docs")
        #expect(spec.endpoint == .unit(UnitTarget(unit: "unison-docs.service", phases: [.export], database: "photos", rules: "unison")))
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
        #expect(configuration.subscribeWithSections == ["docs=unit:unison-docs.service"])
        #expect(configuration.sourceSettings["docs"]?.unitKeys == ["unit": "unison-docs.service", "rules": "/etc/syncmon/rules/a&b.rules", "phase": "import"])
    }

    @Test func sectionFormChecksValuesWithTheirLine() {
        let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)
        #expect {
            try ConfigFile.apply("[source docs]\nunit = a.service\nphase = sometimes\n", to: base)
        } throws: { error in
            (error as? ConfigFile.ParseError).map { $0.line == 3 && $0.message.contains("import, export or both, not sometimes") } == true
        }
    }
}
