/// A place in the configuration file where settings are written: the top of the file, before
/// any section header, or a section `[WORD NAME]`. Each setting's declaration lists the places
/// it may appear in; the file parser, its errors and the reference take them from there.
///
/// A new kind of section is one more `static let` of the configuration's sections (a word, how
/// its names are checked, what its header records) and its keys' declarations naming it.
public struct SettingSection<Configuration: SettingsConfiguration>: Sendable, Hashable, CustomStringConvertible {
    /// The header's first word (`engine` in `[engine photos]`); nil for the top of the file.
    public let word: String?
    /// How the name is written in the reference: `NAME`, `ENGINE/DATABASE`.
    public let nameForm: String
    /// What such a section is for, for the reference.
    public let purpose: String
    /// Whole sections as the example file shows them (each parsed by a test).
    public let examples: [String]
    /// Why `name` cannot name such a section (`invalid engine name x`), or nil when it can.
    let refuse: @Sendable (String) -> String?
    /// What the header itself records: an empty `[engine quiet]` still names its engine.
    let open: @Sendable (inout Configuration, String) -> Void

    public init(
        word: String?,
        nameForm: String,
        purpose: String,
        examples: [String],
        refuse: @escaping @Sendable (String) -> String?,
        open: @escaping @Sendable (inout Configuration, String) -> Void
    ) {
        self.word = word
        self.nameForm = nameForm
        self.purpose = purpose
        self.examples = examples
        self.refuse = refuse
        self.open = open
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.word == rhs.word }
    public func hash(into hasher: inout Hasher) { hasher.combine(self.word) }

    /// `[engine NAME]`, or `the top of the file`.
    public var description: String { self.word.map { "[\($0) \(self.nameForm)]" } ?? "the top of the file" }

    /// How errors say where a key is refused: `per engine`, `at the top of the file`.
    var refusalPlace: String { self.word.map { "per \($0)" } ?? "at the top of the file" }

    /// Lines before the first section header.
    public static var global: Self {
        Self(word: nil, nameForm: "", purpose: "Settings for everything the file configures.", examples: [], refuse: { _ in nil }, open: { _, _ in })
    }

    /// Every kind of place, as the settings name them: the top of the file first.
    public static var all: [Self] {
        var seen: [Self] = [.global]
        for setting in Configuration.settings {
            for section in setting.sections where !seen.contains(section) { seen.append(section) }
        }
        return seen
    }

    /// The settings that may be written here, in declaration order.
    public var settings: [Setting<Configuration>] { Configuration.settings.filter { $0.sections.contains(self) } }
}
