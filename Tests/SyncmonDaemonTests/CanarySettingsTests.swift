import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonSources
import Testing

/// `[canary ENGINE/DATABASE]` sections and `--canary` (docs/configuration.md#canary-sections).
@Suite("Canary settings")
struct CanarySettingsTests {
    let base = DaemonConfiguration(environment: ["HOME": "/home/test"], isRoot: false)

    @Test("a section sets every key; the defaults fill the rest")
    func section() throws {
        let configuration = try ConfigFile.apply(
            """
            [canary syncthing/photos]
            path = /tmp
            interval = 5s
            late-after = 0
            host = nas.lan
            mode = receive
            [canary b/x]
            path = /tmp
            """, to: self.base)
        let canaries = try CanarySetting.resolve(configuration.canaries)
        #expect(canaries.count == 2)
        let photos = try #require(canaries.first { $0.key.engine.description == "syncthing" }?.configuration)
        #expect(photos.path == "/tmp" && photos.interval == .seconds(5 as Int64) && photos.lateAfter == .zero)
        #expect(photos.host == CanaryHost("nas.lan") && photos.mode == .receive)
        let other = try #require(canaries.first { $0.key.engine.description == "b" }?.configuration)
        #expect(other.interval == CanaryConfiguration.defaultInterval && other.lateAfter == CanaryConfiguration.defaultLateAfter && other.mode == .both)
    }

    static let refused: [(String, String)] = [
        ("[canary nodatabase]\npath = /tmp", "not ENGINE/DATABASE"),
        ("[canary a/b]\nmode = sideways", "mode: \"sideways\" is not a mode; write both, receive or send"),
        ("[canary a/b]\nhost = a b", "host: \"a b\" is not a host name"),
        ("[canary a/b]\ninterval = 0", "interval: \"0\" is not a duration above 0"),
        ("[canary a/b]\nnot-syncing-after = 1m", "cannot be set per canary"),
        ("canary-late-after = 1m", "canary-late-after"),
    ]

    @Test("bad lines are refused with the line and the fix", arguments: refused)
    func refusesLines(_ text: String, _ message: String) {
        #expect(throws: ConfigFile.ParseError.self) { try ConfigFile.apply(text, to: self.base) }
        do {
            _ = try ConfigFile.apply(text, to: self.base)
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("resolve refuses a canary without a path, and PATH not a directory or a link, naming it")
    func resolveRefuses() throws {
        #expect(throws: CanarySettingError.self) { try CanarySetting.resolve(["a/b": CanarySetting()]) }
        let link = NSTemporaryDirectory() + "canary-link-\(getpid())"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/tmp")
        defer { try? FileManager.default.removeItem(atPath: link) }
        do {
            _ = try CanarySetting.resolve(["a/b": CanarySetting(path: link)])
            Issue.record("a symbolic link was taken")
        } catch {
            #expect(error.description.contains(link) && error.description.contains("symbolic link"))
        }
        let flag = try CanarySetting.parseFlag("a/b=/srv/x=y")
        #expect(flag.pair == "a/b" && flag.path == "/srv/x=y")
        #expect(throws: CanarySettingError.self) { try CanarySetting.parseFlag("/srv/x") }
    }
}
