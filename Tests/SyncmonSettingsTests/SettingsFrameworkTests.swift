import SyncmonSettings
import Testing

/// A configuration of a made-up program, so the framework is tested as another program would use
/// it: nothing of the daemon (the daemon's own declarations are tested in SyncmonDaemonTests).
struct ToyConfiguration: SettingsConfiguration, Equatable {
    var name = "toy"
    var tags: [String] = ["default"]
    var verbose = false
    var boxSizes: [String: Int] = [:]
    var sectionLines: [String: Int] = [:]

    static let reference = ToyConfiguration()
    static var settings: [Setting<ToyConfiguration>] { [.name, .tags, .verbose, .boxSize] }
}

extension SettingSection<ToyConfiguration> {
    /// `[box NAME]`: names of lowercase letters only.
    static let box = SettingSection(
        word: "box",
        nameForm: "NAME",
        purpose: "One box.",
        examples: ["[box a]\nsize = 2"],
        refuse: { name in name.allSatisfy(\.isLowercase) ? nil : "invalid box name \(name)" },
        open: { configuration, name in configuration.boxSizes[name, default: 0] += 0 }
    )
}

extension Setting<ToyConfiguration> {
    static let name = Setting("name", .text("NAME", accepted: "a name"), reload: .atOnce, summary: "The name.", .global(\.name))
    static let tags = Setting("tag", .text("TAG", accepted: "a tag"), reload: .restart, summary: "A tag (repeatable).", .list(\.tags))
    static let verbose = Setting("verbose", flag: .onOff, .boolean, reload: .atOnce, summary: "Says more.", .global(\.verbose))
    static let boxSize = Setting(
        "size",
        flag: .none,
        .positiveInteger,
        reload: .restart,
        summary: "A box's size.",
        .section(.box, set: { configuration, box, size in configuration.boxSizes[box] = size }, table: { AnyHashable($0.boxSizes) })
    )
}

@Suite("Settings framework")
struct SettingsFrameworkTests {
    @Test(
        "a file's lines set the declared settings; the first value of a list replaces the default",
        arguments: [
            ("name = a", ToyConfiguration(name: "a")),
            ("tag = x\ntag = y", ToyConfiguration(tags: ["x", "y"])),
            ("verbose = yes\n# a comment\n", ToyConfiguration(verbose: true)),
            ("[box a]\nsize = 3", ToyConfiguration(boxSizes: ["a": 3], sectionLines: ["box a": 1])),
            ("[box empty]", ToyConfiguration(boxSizes: ["empty": 0], sectionLines: ["box empty": 1])),
        ]
    )
    func fileSets(text: String, expected: ToyConfiguration) throws {
        #expect(try ConfigFile.apply(text, to: ToyConfiguration.reference) == expected)
    }

    @Test(
        "a bad line is refused with its number, why, and what to write instead",
        arguments: [
            ("nmae = a", "line 1: unknown setting nmae (did you mean name?)"),
            ("size = 2", "line 1: unknown setting size here: it belongs in [box NAME] sections"),
            ("[box a]\nname = b", "line 2: name cannot be set per box (only size can)"),
            ("[box A]", "line 1: invalid box name A"),
            ("[crate a]", "line 1: sections are written [box NAME]"),
            ("\n\nverbose = maybe", "line 3: verbose: \"maybe\" is not true or false; write true or false (or yes/no, 1/0)"),
            ("name", "line 1: expected key = value"),
        ]
    )
    func fileRefuses(text: String, message: String) {
        let error = #expect(throws: ConfigFile.ParseError.self) { try ConfigFile.apply(text, to: ToyConfiguration.reference) }
        #expect(error?.description == message)
    }

    @Test("flags apply over the file: a repeated flag replaces the list, a bad value names the flag")
    func overrides() throws {
        var configuration = try ConfigFile.apply("tag = file\nname = file", to: ToyConfiguration.reference)
        let flags = SettingOverride.given(.tags, ["a", "b"]) + SettingOverride.given(.verbose, true)
        try SettingOverride.apply(flags, to: &configuration)
        #expect(configuration == ToyConfiguration(name: "file", tags: ["a", "b"], verbose: true))
        let error = #expect(throws: SettingValueError.self) { try SettingOverride.check(SettingOverride.given(.name, "")) }
        #expect(error?.message == "--name: empty; write a name")
    }

    @Test("what differs between two configurations is told per setting, sections included")
    func differs() {
        let other = ToyConfiguration(tags: ["x"], boxSizes: ["a": 1])
        #expect(ToyConfiguration.settings.filter { $0.differs(.reference, other) }.map(\.key) == ["tag", "size"])
    }

    @Test(
        "the reference is made from the declarations",
        arguments: [
            (ReferenceText<ToyConfiguration>.markdownKeys(), "| `size` | none (file only) | none | `[box NAME]` | takes a restart |"),
            (ReferenceText<ToyConfiguration>.markdownFlags(), "| `--verbose` | `false` | Says more. |"),
            (ReferenceText<ToyConfiguration>.fileAdditions(), "[box NAME] sections"),
            (ReferenceText<ToyConfiguration>.manConfiguration(), ".TP\n\\fBsize\\fP \\fIn\\fP (in \\fB[box\\fP \\fIname\\fP\\fB]\\fP)\n"),
            (ReferenceText<ToyConfiguration>.exampleFile(header: ["# toy"]), "#tag = default\n"),
        ]
    )
    func reference(text: String, line: String) {
        #expect(text.contains(line), "\(text)")
    }
}
