/// An example configuration file (the daemon's: deploy/syncmon.conf.example): every setting of
/// the file, commented out, at its default (or an example when it has none), then an example of
/// each kind of section.
extension ReferenceText {
    /// The file after its `header` lines (comments, written as given).
    package static func exampleFile(header: [String]) -> String {
        var lines = header
        for setting in SettingSection<Configuration>.global.settings {
            lines.append("")
            lines += Self.wrapped(Self.plain(Self.exampleProse(setting)), width: 100, prefix: "# ")
            lines.append("#\(setting.key) = \(setting.example)")
        }
        for section in SettingSection<Configuration>.all where section != .global {
            lines.append("")
            let title = "# --- \(section) "
            lines.append(title + String(repeating: "-", count: max(3, 100 - title.count)))
            let keys = section.settings.map(\.key)
            lines += Self.wrapped(Self.plain(section.purpose) + " Only " + WordList.joined(keys, "and") + " may be set here.", width: 100, prefix: "# ")
            lines += Self.wrapped("Every line after a section header belongs to that section, so global keys come first.", width: 100, prefix: "# ")
            for setting in section.settings where !setting.sections.contains(.global) {
                lines.append("#")
                lines += Self.wrapped("\(setting.key): " + Self.plain(Self.exampleProse(setting)), width: 100, prefix: "# ")
            }
            for example in section.examples {
                lines.append("")
                lines += example.split(separator: "\n").map { "#" + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A setting's comment: what it does, its default unless it is only an example, what a reload does.
    static func exampleProse(_ setting: Setting<Configuration>) -> String {
        var parts = [setting.summary]
        if !setting.details.isEmpty { parts.append(setting.details) }
        // The line below the comment shows the default; say it when that line shows an example.
        if setting.defaultText != setting.example { parts.append("Default: \(setting.defaultText).") }
        parts.append("On reload: \(setting.reload.reference).")
        return parts.joined(separator: " ")
    }
}
