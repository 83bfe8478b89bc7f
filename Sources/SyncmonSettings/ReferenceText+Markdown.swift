/// A Markdown document's tables of flags and keys, and its lists of section keys and reload
/// behaviour (the daemon's: docs/configuration.md).
extension ReferenceText {
    /// The flags table: flag and value, default, meaning.
    public static func markdownFlags() -> String {
        var lines = ["| flag | default | meaning |", "|---|---|---|"]
        for setting in Self.flagged {
            let flag = setting.flagIsOnOff ? "`\(setting.flag!)`" : "`\(setting.flag!) \(setting.placeholder)`"
            let meaning = [setting.summary, setting.details].filter { !$0.isEmpty }.joined(separator: " ")
            lines.append("| \(flag) | \(Self.markdownDefault(setting)) | \(Self.cell(meaning)) |")
        }
        lines.append("| `--version`, `-h`/`--help` | | |")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The keys table: key, flag, default, where it may be written, what a reload does.
    public static func markdownKeys() -> String {
        var lines = ["| key | flag | default | where | on SIGHUP |", "|---|---|---|---|---|"]
        for setting in Configuration.settings where !setting.sections.isEmpty {
            let flag = setting.flag.map { "`\($0)`" } ?? "none (file only)"
            let places = setting.sections.map { $0 == .global ? "top" : "`\($0)`" }.joined(separator: ", ")
            let repeatable = setting.isRepeatable ? ", repeatable" : ""
            lines.append(
                "| `\(setting.key)` | \(flag) | \(Self.markdownDefault(setting)) | \(places)\(repeatable) | \(setting.reload.reference) |"
            )
        }
        lines.append("")
        for section in SettingSection<Configuration>.all where section != .global {
            let keys = section.settings.map { "`\($0.key)`" }
            lines.append("- `\(section)` may set only \(WordList.joined(keys, "and")). \(Self.cell(section.purpose))")
        }
        for setting in Self.fileOnly where setting.sections.contains(.global) {
            lines.append("- `\(setting.key)`: \(Self.cell(setting.summary)) \(Self.cell(setting.details))".trimmingTrailingSpace())
        }
        for setting in Self.fileOnly where !setting.sections.contains(.global) {
            let details = setting.details.isEmpty ? "" : " " + setting.details
            lines.append("- `\(setting.key)` (\(setting.sections.map { "`\($0)`" }.joined(separator: ", "))): \(setting.summary)\(details)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a reload does, by setting; `restart` says how the settings that take a restart get it.
    package static func markdownReload(restart: String) -> String {
        let groups: [(Setting<Configuration>.Reload, String)] = [
            (.atOnce, "Apply at once"), (.newConnections, "Apply to connections and requests from then on"), (.restart, restart),
        ]
        return groups.map { reload, title in
            "- \(title): " + WordList.joined(Self.keys(reloading: reload).map { "`\($0)`" }, "and") + "."
        }.joined(separator: "\n") + "\n"
    }

    /// The default in a table cell: a single word as code, a sentence as text.
    static func markdownDefault(_ setting: Setting<Configuration>) -> String {
        let text = setting.defaultText
        if text == "none" { return "none" }
        return text.contains(" ") ? Self.cell(text) : "`\(text)`"
    }

    /// Text safe in a table cell.
    static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|")
    }
}

extension String {
    fileprivate func trimmingTrailingSpace() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

}
