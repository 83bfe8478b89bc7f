/// The reference text of a configuration's settings, made from their declarations (``Setting``):
/// the options' help, and the parts of a man page, a Markdown document and an example file that
/// list settings. The daemon's (`SettingsReference`) are compared with its man page,
/// docs/configuration.md and the example file by a test
/// (Tests/SyncmonDaemonTests/SettingsReferenceTests.swift; `SYNCMON_WRITE_REFERENCE=1` rewrites them).
///
/// Markup in summaries and details: text in backquotes is literal (code, bold in the man page).
public enum ReferenceText<Configuration: SettingsConfiguration> {
    /// The option's help in `syncmon daemon --help`: what it does and its default.
    public static func help(for setting: Setting<Configuration>) -> String {
        var text = Self.plain(setting.summary)
        if setting.defaultText != "none", !setting.flagIsOnOff { text += " Default: \(setting.defaultText)." }
        return text
    }

    /// What the configuration file adds to the flags, for `syncmon daemon --help`: its
    /// file-only keys at the top and its kinds of section, `max-connections and [engine NAME],
    /// [source NAME] and [canary ENGINE/DATABASE] sections`, so that a new section is named there
    /// as soon as it is declared.
    public static func fileAdditions() -> String {
        let keys = Self.fileOnly.filter { $0.sections.contains(.global) }.map(\.key)
        let sections = SettingSection<Configuration>.all.filter { $0 != .global }.map(\.description)
        return WordList.joined(keys, "and") + (keys.isEmpty ? "" : " and ") + WordList.joined(sections, "and") + " sections"
    }

    /// The settings that have a flag, in help's order.
    package static var flagged: [Setting<Configuration>] { Configuration.settings.filter { $0.flag != nil } }

    /// The settings written in the file but given by no flag (`max-connections`, section keys).
    static var fileOnly: [Setting<Configuration>] { Configuration.settings.filter { $0.flag == nil } }

    /// The keys of the settings that `reload` does, in order.
    static func keys(reloading reload: Setting<Configuration>.Reload) -> [String] {
        Configuration.settings.filter { $0.reload == reload && !$0.sections.isEmpty }.map(\.key)
    }

    /// `text` without its markup: backquotes go.
    package static func plain(_ text: String) -> String {
        text.filter { $0 != "`" }
    }

    /// Words of `text` filled into lines of at most `width` characters, each starting with `prefix`.
    package static func wrapped(_ text: String, width: Int, prefix: String) -> [String] {
        var lines: [String] = []
        var line = prefix
        for word in text.split(separator: " ") {
            if line.count > prefix.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = prefix
            }
            line += (line.count > prefix.count ? " " : "") + word
        }
        if line.count > prefix.count { lines.append(line) }
        return lines
    }
}
