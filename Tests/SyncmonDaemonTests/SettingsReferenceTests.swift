import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonSources
import Testing

/// The settings' reference, made from their declarations, against the files that show it: the
/// man page's option list, docs/configuration.md's tables and deploy/syncmon.conf.example.
///
/// Each file holds the generated text between `BEGIN generated: NAME` and `END generated: NAME`
/// comment lines (the example file is generated whole). When a declaration changes, run this
/// suite with `SYNCMON_WRITE_REFERENCE=1` to rewrite those parts, and read the diff.
@Suite("Settings reference", .serialized)
struct SettingsReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let manPage = "deploy/man/syncmon.8"
    static let configurationDoc = "docs/configuration.md"
    static let exampleFile = "deploy/syncmon.conf.example"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text between the marker lines of `name` in `text`, and where it is.
    static func region(_ name: String, in text: String) -> Range<String.Index>? {
        guard let begin = Self.marker("BEGIN", name, in: text), let end = Self.marker("END", name, in: text) else { return nil }
        guard let afterBegin = text[begin.upperBound...].firstIndex(of: "\n"), let endLine = text[..<end.lowerBound].lastIndex(of: "\n")
        else { return nil }
        return text.index(after: afterBegin)..<text.index(after: endLine)
    }

    /// `BEGIN generated: NAME` (or `END …`), followed by a blank or the line's end.
    static func marker(_ word: String, _ name: String, in text: String) -> Range<String.Index>? {
        text.ranges(of: "\(word) generated: \(name)").first { range in
            range.upperBound == text.endIndex || text[range.upperBound] == " " || text[range.upperBound] == "\n"
        }
    }

    @Test(
        "each generated part of the man page and configuration.md is as the declarations make it",
        arguments: [
            (Self.manPage, "daemon synopsis", SettingsReference.manSynopsis()),
            (Self.manPage, "daemon options", SettingsReference.manOptions()),
            (Self.manPage, "stall thresholds", SettingsReference.manThresholds()),
            (Self.manPage, "configuration keys", SettingsReference.manConfiguration()),
            (Self.configurationDoc, "flags", SettingsReference.markdownFlags()),
            (Self.configurationDoc, "keys", SettingsReference.markdownKeys()),
            (Self.configurationDoc, "reload", SettingsReference.markdownReload()),
        ])
    func generatedRegion(path: String, name: String, expected: String) throws {
        var text = try Self.read(path)
        let range = try #require(Self.region(name, in: text), "\(path) has no BEGIN/END generated: \(name) lines")
        if String(text[range]) != expected, ProcessInfo.processInfo.environment["SYNCMON_WRITE_REFERENCE"] == "1" {
            text.replaceSubrange(range, with: expected)
            try text.write(to: Self.root.appendingPathComponent(path), atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[range]) == expected, "\(path), \(name): differs from the declarations (SYNCMON_WRITE_REFERENCE=1 rewrites it)")
    }

    @Test("deploy/syncmon.conf.example is as the declarations make it, and configuration.md shows it whole")
    func exampleFile() throws {
        let expected = SettingsReference.exampleFile()
        if ProcessInfo.processInfo.environment["SYNCMON_WRITE_REFERENCE"] == "1" {
            try expected.write(to: Self.root.appendingPathComponent(Self.exampleFile), atomically: true, encoding: .utf8)
            // configuration.md's "Example file" section shows it in the first ini block after its heading.
            var doc = try Self.read(Self.configurationDoc)
            let heading = try #require(doc.range(of: "## Example file\n"))
            let open = try #require(doc[heading.upperBound...].range(of: "```ini\n"))
            let close = try #require(doc[open.upperBound...].range(of: "```\n"))
            doc.replaceSubrange(open.upperBound..<close.lowerBound, with: expected)
            try doc.write(to: Self.root.appendingPathComponent(Self.configurationDoc), atomically: true, encoding: .utf8)
        }
        #expect(try Self.read(Self.exampleFile) == expected, "SYNCMON_WRITE_REFERENCE=1 rewrites it")
        #expect(try Self.read(Self.configurationDoc).contains("```ini\n" + expected + "```\n"), "configuration.md's Example file section")
    }

    @Test("the example file, every line uncommented, parses and changes no default but the examples")
    func exampleParses() throws {
        let uncommented = SettingsReference.exampleFile().split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let isSetting = line.wholeMatch(of: /#[a-z][a-z.-]* = .*/) != nil || line.wholeMatch(of: /#\[[a-z]+ [^ \]]+\]/) != nil
            return String(isSetting ? line.dropFirst() : line)
        }.joined(separator: "\n")
        let base = DaemonConfiguration.reference
        let configuration = try ConfigFile.apply(uncommented, to: base)
        #expect(configuration.listen == base.listen)
        #expect(configuration.thresholds == base.thresholds)
        #expect(configuration.maximumPairs == base.maximumPairs)
        #expect(configuration.logLevel == base.logLevel)
        #expect(configuration.subscribe == [DaemonSetting.subscribe.example])
        #expect(configuration.engineThresholds["photos"]?[.noProgress] == .seconds(1800 as Int64))
        #expect(configuration.engineThresholds["backup-home"]?[.noRecentExport] == .seconds(Int64(26 * 3600)))
        #expect(configuration.peerPolicies["backup-home"]?.users.contains(1042) == true)
        #expect(configuration.sourceSettings["a"]?.apiKeyFile == "/etc/syncmon/syncthing-a.key")
    }

    @Test("every daemon flag is in the man page and configuration.md, every file key in configuration.md")
    func everyFlagDocumented() throws {
        let man = try Self.read(Self.manPage)
        let doc = try Self.read(Self.configurationDoc)
        for setting in DaemonSetting.all {
            if let flag = setting.flag {
                #expect(man.contains(".TP\n\\fB\(flag.replacing("-", with: "\\-"))\\fP"), "\(flag) not in \(Self.manPage)")
                #expect(doc.contains("| `\(flag)"), "\(flag) not in \(Self.configurationDoc)'s flags table")
            }
            if !setting.sections.isEmpty { #expect(doc.contains("| `\(setting.key)` |"), "\(setting.key) not in the keys table") }
        }
    }

    @Test("keys and flags are unique, and every default written is the value the daemon starts with")
    func declarations() throws {
        // A key may mean different things in different sections, never twice in one.
        for section in ConfigSection.all {
            let keys = section.settings.map(\.key)
            #expect(Set(keys).count == keys.count, "\(section): \(keys)")
        }
        let flags = DaemonSetting.all.compactMap(\.flag)
        #expect(Set(flags).count == flags.count)
        for setting in DaemonSetting.all where setting.sections.contains(.global) && !setting.isRepeatable && !setting.defaultText.contains(" ") {
            guard setting.defaultText != "none" else { continue }
            var configuration = DaemonConfiguration.reference
            try setting.assign(setting.defaultText, to: &configuration)
            #expect(configuration == DaemonConfiguration.reference, "\(setting.key): the default \(setting.defaultText) is not the daemon's")
        }
        // Every example is a value the setting accepts.
        for setting in DaemonSetting.all { #expect(throws: Never.self, "\(setting.key)") { try setting.check(setting.example) } }
    }

    @Test("a reload names exactly the changed settings that take a restart")
    func restartList() throws {
        let running = DaemonConfiguration.reference
        for setting in DaemonSetting.all {
            var changed = running
            let section = setting.sections.first ?? .global
            try setting.assign(setting.example, in: section, name: "x", to: &changed)
            if !setting.differs(changed, running) { try setting.assign(Self.otherValue(setting), in: section, name: "x", to: &changed) }
            #expect(setting.differs(changed, running), "\(setting.key)")
            let named = ReloadService.needingRestart(changed, running: running)
            #expect(named == (setting.reload == .restart ? [setting.key] : []), "\(setting.key): \(named)")
        }
    }

    /// A value of `setting` other than its default.
    static func otherValue(_ setting: DaemonSetting) -> String {
        switch setting.key {
        case "listen": "127.0.0.1:1"
        case "from-start": "true"
        case "max-connections", "max-engines": "7"
        case "host-network": "offline"
        case "log-target": "stderr"
        case "log-level": "debug"
        default: "17s"
        }
    }
}
