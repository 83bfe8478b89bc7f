import SyncmonCore
import SyncmonSources

/// The daemon's kinds of section besides the top of the file: `[engine NAME]` and
/// `[source NAME]` here, `[canary …]` and `[notify …]` beside their keys' declarations.
extension ConfigSection {
    /// `[engine NAME]`, or `the top of the file`.
    package var description: String { self.word.map { "[\($0) \(self.nameForm)]" } ?? "the top of the file" }

    /// How errors say where a key is refused: `per engine`, `at the top of the file`.
    var refusalPlace: String { self.word.map { "per \($0)" } ?? "at the top of the file" }
}

extension ConfigSection {
    /// Lines before the first section header.
    package static let global = ConfigSection(
        word: nil,
        nameForm: "",
        purpose: "Settings for the whole daemon.",
        examples: [],
        refuse: { _ in nil },
        open: { _, _ in }
    )

    /// `[engine NAME]`: thresholds and who may report, for every database of one engine.
    package static let engine = ConfigSection(
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
    package static let source = ConfigSection(
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
}
