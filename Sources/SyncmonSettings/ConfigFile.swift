import SyncmonCore

/// A configuration file: `key = value` lines whose keys are the settings' keys (``Setting``,
/// mostly the long flag names), then sections (``SettingSection``), each `[WORD NAME]` with the
/// keys declared for it. The daemon's (docs/configuration.md):
///
/// ```
/// # /etc/syncmon/syncmon.conf
/// listen = 127.0.0.1:9478
/// subscribe = unix:/run/notes/events.sock
/// not-syncing-after = 2m
///
/// [engine photos]
/// no-progress-after = 30m
/// no-recent-import-after = 6h
/// ```
///
/// Repeatable keys (`listen`, `subscribe`) may appear several times. Unknown keys are errors, so a
/// typo never silently leaves a default in place; the error suggests the nearest key.
public enum ConfigFile {
    /// A line the parser could not accept.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(self.line): \(self.message)" }
    }

    /// Applies the file's settings on top of `base`.
    public static func apply<Configuration: SettingsConfiguration>(_ text: String, to base: Configuration) throws(ParseError) -> Configuration {
        var configuration = base
        var section = SettingSection<Configuration>.global
        var sectionName = ""
        /// The lists this file has started: its first `listen` replaces the default list.
        var started = Set<String>()
        // "\r\n" is a single Character in Swift: split on it too, or a CRLF file would be one line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                (section, sectionName) = try Self.header(line, number: number)
                section.open(&configuration, sectionName)
                if let word = section.word, configuration.sectionLines["\(word) \(sectionName)"] == nil {
                    configuration.sectionLines["\(word) \(sectionName)"] = number
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw ParseError(line: number, message: "expected key = value") }
            let key = line[..<equals].trimmingWhitespace()
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }

            let setting = try Self.setting(key, in: section, line: number)
            if setting.isRepeatable, started.insert(setting.key).inserted { setting.clearList(in: &configuration) }
            do {
                try setting.assign(value, in: section, name: sectionName, to: &configuration)
            } catch {
                throw ParseError(line: number, message: "\(key): \(error.message)")
            }
        }
        return configuration
    }

    /// The section a header line opens, and its name.
    private static func header<Configuration>(_ line: String, number: Int) throws(ParseError) -> (SettingSection<Configuration>, String) {
        guard line.hasSuffix("]") else { throw ParseError(line: number, message: "unterminated section header") }
        let words = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
        let kinds = SettingSection<Configuration>.all.filter { $0.word != nil }
        guard words.count == 2, let kind = kinds.first(where: { $0.word == String(words[0]) }) else {
            let forms = kinds.map(\.description)
            throw ParseError(line: number, message: "sections are written " + WordList.joined(forms))
        }
        let name = String(words[1])
        if let refusal = kind.refuse(name) { throw ParseError(line: number, message: refusal) }
        return (kind, name)
    }

    /// The setting `key` names, if it may be written in `section`; else an error saying where it
    /// belongs or which key was likely meant.
    private static func setting<Configuration>(
        _ key: String,
        in section: SettingSection<Configuration>,
        line: Int
    ) throws(ParseError) -> Setting<Configuration> {
        let allowed = section.settings
        if let setting = allowed.first(where: { $0.key == key }) { return setting }
        let elsewhere = Configuration.settings.first { $0.key == key && !$0.sections.isEmpty }
        var message: String
        if section == .global {
            message = "unknown setting \(key)"
            if let elsewhere {
                message += " here: it belongs in " + WordList.joined(elsewhere.sections.map(\.description)) + " sections"
            }
        } else {
            message = "\(key) cannot be set \(section.refusalPlace) (only \(WordList.joined(allowed.map(\.key), "and")) can)"
        }
        if elsewhere == nil, let nearest = NearestName.nearest(to: key, in: allowed.map(\.key)) {
            message += " (did you mean \(nearest)?)"
        }
        throw ParseError(line: line, message: message)
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = self.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })!
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
