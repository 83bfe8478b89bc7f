import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonNotify
import SyncmonTestSupport
import Testing

/// `[notify NAME]` sections (docs/notifications.md): typed into one route each with the
/// defaults filled in, and every bad route refused with its line and what to write instead.
@Suite("Notify route settings")
struct NotifyRouteSettingTests {
    /// The file's routes, resolved.
    static func routes(_ text: String) throws -> [NotificationRouteConfiguration] {
        let configuration = try ConfigFile.apply(text, to: DaemonConfiguration.reference)
        return try NotifyRouteSetting.resolve(configuration.notifyRoutes, lines: configuration.sectionLines)
    }

    /// The error text the file gives (parse or resolve), or nil when it is good.
    static func error(_ text: String) -> String? {
        do {
            _ = try Self.routes(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("a command route with the defaults")
    func defaults() throws {
        let routes = try Self.routes("[notify ops]\ncommand = /bin/true --flag \"two words\"\n")
        let route = try #require(routes.first)
        #expect(route.name == "ops")
        guard case .command(let argv) = route.target else {
            Issue.record("not a command: \(route.target)")
            return
        }
        #expect(argv == ["/bin/true", "--flag", "two words"])
        #expect(route.policy == NotificationPolicy.defaults)
        #expect(route.timeout == .seconds(Int64(30)))
    }

    @Test("every rule key is typed into the route's policy")
    func rules() throws {
        let text = """
            [notify chat]
            webhook = https://hooks.example.org/x
            webhook-header = X-Team: storage
            when = error, no_network
            engines = syncthing/*, backup-?
            hold = 1s
            resolved = no
            repeat = 0
            group = 2s
            rate-limit = 3
            timeout = 5s
            page-url = http://nas:9478
            """
        let route = try #require(try Self.routes(text).first)
        #expect(route.policy.when == [.error, .noNetwork])
        #expect(route.policy.engines.map(\.description) == ["syncthing/*", "backup-?"])
        #expect(route.policy.hold == .seconds(Int64(1)))
        #expect(route.policy.sendsResolved == false)
        #expect(route.policy.repeatInterval == nil)
        #expect(route.policy.group == .seconds(Int64(2)))
        #expect(route.policy.ratePerHour == 3)
        #expect(route.timeout == .seconds(Int64(5)))
        #expect(route.pageURL == "http://nas:9478")
        guard case .webhook(let target) = route.target else {
            Issue.record("not a webhook")
            return
        }
        #expect(target.url == "https://hooks.example.org/x")
        #expect(target.headers.map { "\($0.0)=\($0.1)" } == ["X-Team=storage"])
    }

    @Test("mail routes: addresses, sender and sendmail")
    func mail() throws {
        let route = try #require(try Self.routes("[notify m]\nmail-to = a@example.org, b@example.org\nmail-from = s@example.org\n").first)
        guard case .mail(let to, let from, let sendmail) = route.target else {
            Issue.record("not mail")
            return
        }
        #expect(to == ["a@example.org", "b@example.org"])
        #expect(from == "s@example.org")
        #expect(sendmail == "/usr/sbin/sendmail")
    }

    @Test("a command that is a file without an execute bit is refused")
    func notExecutable() throws {
        let directory = try TemporaryDirectory(prefix: "smnx")
        defer { directory.remove() }
        let path = directory.path("script")
        try "#!/bin/sh\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let error = Self.error("[notify a]\ncommand = \(path)\n")
        #expect(error?.contains("line 1: [notify a]: command: \(path) is not executable") == true, "\(error ?? "accepted")")
    }

    @Test(
        "bad routes are refused with the line and the fix",
        arguments: [
            ("# x\n[notify a]\nhold = 1s\n", "line 2: [notify a]: no target"),
            ("[notify a]\ncommand = /bin/true\nwebhook = http://x/\n", "line 1: [notify a]: 2 targets (command and webhook)"),
            ("[notify a]\ncommand = /bin/true\nhodl = 1s\n", "line 3: hodl cannot be set per notify"),
            ("[notify a]\ncommand = /bin/true\nhodl = 1s\n", "(did you mean hold?)"),
            ("[notify a]\ncommand = bin/true\n", "line 2: command: bin/true is a relative path"),
            ("[notify a]\ncommand = /no/such/program\n", "[notify a]: command: /no/such/program: No such file or directory"),
            ("[notify a]\ncommand = /etc\n", "/etc is not a regular file"),
            ("[notify a]\ncommand = /bin/true \"open\n", "line 2: command:"),
            ("[notify a]\nwebhook = ftp://x/\n", "line 2: webhook: \"ftp://x/\" is not a URL"),
            ("[notify a]\nwebhook = http:///x\n", "line 2: webhook:"),
            ("[notify a]\nmail-to = root\n", "line 2: mail-to:"),
            ("[notify a]\ncommand = /bin/true\nwhen = error, stalld\n", "line 3: when: unknown summary stalld (did you mean stalled?)"),
            ("[notify a]\ncommand = /bin/true\nrate-limit = 0\n", "line 3: rate-limit:"),
            ("[notify a]\ndesktop = no\n", "line 1: [notify a]: no target"),
            ("[notify a]\ndesktop = yes\ncommand = /bin/true\n", "2 targets (command and desktop)"),
            ("[notify a b]\n", "line 1: sections are written"),
            ("[notify a/b]\n", "line 1: invalid route name a/b"),
            ("[notify a]\nwebhook = http://x/\nwebhook-header-file = X-Token: /no/such/file\n", "webhook-header-file: cannot read /no/such/file"),
        ] as [(String, String)]
    )
    func refused(text: String, message: String) {
        let error = Self.error(text)
        #expect(error?.contains(message) == true, "\(error ?? "accepted")")
    }
}
