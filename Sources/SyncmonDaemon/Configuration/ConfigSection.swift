import SyncmonCore
import SyncmonSources

/// A place in the configuration file where settings are written: the top of the file, before
/// any section header, or a section `[WORD NAME]`. Each setting's declaration lists the places
/// it may appear in; the file parser, its errors and the reference take them from there.
///
/// A new kind of section is one more `static let` here (a word, how its names are checked, what
/// its header records) and its keys' declarations naming it.
public struct ConfigSection: Sendable, Hashable, CustomStringConvertible {
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
    let open: @Sendable (inout DaemonConfiguration, String) -> Void

    public static func == (lhs: ConfigSection, rhs: ConfigSection) -> Bool { lhs.word == rhs.word }
    public func hash(into hasher: inout Hasher) { hasher.combine(self.word) }

    /// `[engine NAME]`, or `the top of the file`.
    public var description: String { self.word.map { "[\($0) \(self.nameForm)]" } ?? "the top of the file" }

    /// How errors say where a key is refused: `per engine`, `at the top of the file`.
    var refusalPlace: String { self.word.map { "per \($0)" } ?? "at the top of the file" }
}

extension ConfigSection {
    /// Lines before the first section header.
    public static let global = ConfigSection(
        word: nil,
        nameForm: "",
        purpose: "Settings for the whole daemon.",
        examples: [],
        refuse: { _ in nil },
        open: { _, _ in }
    )

    /// `[engine NAME]`: thresholds and who may report, for every database of one engine.
    public static let engine = ConfigSection(
        word: "engine",
        nameForm: "NAME",
        purpose: """
            Settings for one engine, for every database of it. A threshold the section does not set \
            follows the global value, wherever that came from (default, file or flag).
            """,
        examples: [
            "[engine photos]\nno-progress-after = 30m\nno-recent-import-after = 6h",
            """
            [engine backup-home]
            # A nightly backup's dead man's switch: one missed night plus two hours of slack.
            no-recent-export-after = 26h
            # Only the backup job's user and group may report for it.
            allowed-users = backup, 1042
            allowed-groups = backup
            """,
        ],
        refuse: { EngineName.parse($0) == nil ? "invalid engine name \($0) (1–64 characters of A-Z a-z 0-9 . _ -)" : nil },
        open: { configuration, name in
            if configuration.engineThresholds[name] == nil { configuration.engineThresholds[name] = [:] }
        }
    )

    /// `[source NAME]`: what the subscribe source `NAME` needs besides its URL.
    public static let source = ConfigSection(
        word: "source",
        nameForm: "NAME",
        purpose: "What the subscribe source NAME (`subscribe = NAME=URL`) needs besides its URL.",
        examples: [
            """
            # For subscribe = a=syncthing+http://127.0.0.1:8384
            [source a]
            api-key-file = /etc/syncmon/syncthing-a.key
            """
        ],
        refuse: { SourceSpec.isValidName($0) ? nil : "invalid source name \($0) (1–64 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit)" },
        open: { configuration, name in
            if configuration.sourceSettings[name] == nil { configuration.sourceSettings[name] = SourceSettings() }
        }
    )

    /// Every kind of place, as the settings name them: the top of the file first.
    public static var all: [ConfigSection] {
        var seen: [ConfigSection] = [.global]
        for setting in DaemonSetting.all {
            for section in setting.sections where !seen.contains(section) { seen.append(section) }
        }
        return seen
    }

    /// The settings that may be written here, in declaration order.
    public var settings: [DaemonSetting] { DaemonSetting.all.filter { $0.sections.contains(self) } }
}
