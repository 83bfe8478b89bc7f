/// A man page's parts: a command's synopsis and options, and the configuration file's keys,
/// sections and reload behaviour (the daemon's: deploy/man/syncmon.8).
extension ReferenceText {
    /// A SYNOPSIS: `command`, each of `settings` as `[--flag value]`, then the `trailing` words.
    package static func manSynopsis(_ command: String, _ settings: [Setting<Configuration>], then trailing: [String]) -> String {
        var words = ["\\fB\(command)\\fP"]
        for setting in settings {
            let value = setting.flagIsOnOff ? "" : " " + Self.italic(setting.placeholder)
            words.append("[" + Self.bold(setting.flag!) + value + "]" + (setting.isRepeatable ? "..." : ""))
        }
        words += trailing
        // One option per line at most: roff fills them, and a line never starts with a dot.
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty, line.count + 1 + word.count > 78 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `.TP` entries of `settings`' options.
    package static func manOptions(_ settings: [Setting<Configuration>]) -> String {
        settings.map(Self.manEntry).joined()
    }

    /// The CONFIGURATION section's list of keys: which flags are keys, the file-only keys, what
    /// each section may set, and what a reload does.
    public static func manConfiguration() -> String {
        let renamed = Self.flagged.filter { !$0.sections.isEmpty && $0.flag != "--" + $0.key }
        let flagOnly = Self.flagged.filter { $0.sections.isEmpty }
        var sentence = "The keys are the long flag names without `--`"
        sentence += renamed.map { " (`\($0.flag!)` is `\($0.key)`)" }.joined()
        sentence += ", except " + WordList.joined(flagOnly.map { "`\($0.flag!)`" }, "and") + "."
        var text = Self.roffLines(sentence + " These keys are written in the file only:")
        for setting in Self.fileOnly {
            let places = setting.sections.filter { $0 != .global }.map(Self.roffSection)
            let place = places.isEmpty ? "" : " (in " + WordList.joined(places) + ")"
            text += ".TP\n\(Self.bold(setting.key)) \(Self.italic(setting.placeholder))\(place)\n"
            text += Self.roffLines(Self.prose(setting))
        }
        text += ".PP\n"
        for section in SettingSection<Configuration>.all where section != .global {
            let keys = section.settings.map { Self.bold($0.key) }
            text += "A \(Self.roffSection(section)) section may set only \(WordList.joined(keys, "and")).\n"
        }
        text += ".PP\n"
        text += "On \\fBSIGHUP\\fP, "
        let groups: [(Setting<Configuration>.Reload, String)] = [
            (.atOnce, "apply at once"), (.newConnections, "to connections accepted from then on"), (.restart, "take a restart"),
        ]
        text +=
            groups.map { reload, title in
                WordList.joined(Self.keys(reloading: reload).map(Self.bold), "and") + " " + title
            }.joined(separator: ";\n") + ".\n"
        return text
    }

    /// One option: its flag and value, then what it does, its default, its file key and what a reload does.
    static func manEntry(_ setting: Setting<Configuration>) -> String {
        var text = ".TP\n" + Self.bold(setting.flag!)
        if !setting.flagIsOnOff { text += " " + Self.italic(setting.placeholder) }
        text += "\n" + Self.roffLines(Self.prose(setting))
        if setting.flag != "--" + setting.key, !setting.sections.isEmpty {
            text += "In the configuration file: \(Self.bold(setting.key)).\n"
        }
        return text
    }

    /// Summary, details, default and reload behaviour as sentences, with markup.
    static func prose(_ setting: Setting<Configuration>) -> String {
        var parts = [setting.summary]
        if !setting.details.isEmpty { parts.append(setting.details) }
        if setting.defaultText != "none", !setting.flagIsOnOff {
            let value = setting.defaultText.contains(" ") ? setting.defaultText : "`\(setting.defaultText)`"
            parts.append("Default: \(value).")
        }
        if !setting.sections.isEmpty { parts.append("On SIGHUP: \(setting.reload.reference).") }
        return parts.joined(separator: " ")
    }

    /// `[engine` *name*`]`.
    static func roffSection(_ section: SettingSection<Configuration>) -> String {
        "\\fB[\(Self.escape(section.word ?? ""))\\fP \\fI\(Self.escape(section.nameForm.lowercased()))\\fP\\fB]\\fP"
    }

    static func bold(_ text: String) -> String { "\\fB\(Self.escape(text))\\fP" }
    static func italic(_ text: String) -> String { "\\fI\(Self.escape(text.lowercased()))\\fP" }

    /// Marked-up text as roff source lines of at most 78 characters: backquoted text bold.
    package static func roffLines(_ text: String) -> String {
        var roff = ""
        var literal = false
        for part in text.split(separator: "`", omittingEmptySubsequences: false) {
            roff += literal ? Self.bold(String(part)) : Self.escape(String(part))
            literal.toggle()
        }
        return Self.wrapped(roff, width: 78, prefix: "").map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
        }.joined(separator: "\n") + "\n"
    }

    /// Characters roff would read as its own: `\` and `-` (a hyphen, not a minus, otherwise).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(character)
            }
        }
        return out
    }
}
