/// The reference text of the daemon's settings, made from their declarations (``DaemonSetting``):
/// the options' help, and the parts of the man page, docs/configuration.md and the example file
/// that list settings, which a test compares with those files
/// (Tests/SyncmonDaemonTests/SettingsReferenceTests.swift; `SYNCMON_WRITE_REFERENCE=1` rewrites them).
///
/// Markup in summaries and details: text in backquotes is literal (code, bold in the man page).
public enum SettingsReference {
    /// The option's help in `syncmon daemon --help`: what it does and its default.
    public static func help(for setting: DaemonSetting) -> String {
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
        let sections = ConfigSection.all.filter { $0 != .global }.map(\.description)
        return WordList.joined(keys, "and") + (keys.isEmpty ? "" : " and ") + WordList.joined(sections, "and") + " sections"
    }

    /// The settings that have a flag, in help's order.
    static var flagged: [DaemonSetting] { DaemonSetting.all.filter { $0.flag != nil } }

    /// The settings written in the file but given by no flag (`max-connections`, section keys).
    static var fileOnly: [DaemonSetting] { DaemonSetting.all.filter { $0.flag == nil } }

    /// Whether `setting` is a stall threshold (its own part of the man page: replay takes them too).
    static func isThreshold(_ setting: DaemonSetting) -> Bool { setting.key.hasSuffix("-after") && setting.sections.contains(.engine) }

    /// The keys of the settings that `reload` does, in order.
    static func keys(reloading reload: DaemonSetting.Reload) -> [String] {
        DaemonSetting.all.filter { $0.reload == reload && !$0.sections.isEmpty }.map(\.key)
    }

    /// `text` without its markup: backquotes go.
    static func plain(_ text: String) -> String {
        text.filter { $0 != "`" }
    }

    /// Words of `text` filled into lines of at most `width` characters, each starting with `prefix`.
    static func wrapped(_ text: String, width: Int, prefix: String) -> [String] {
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
