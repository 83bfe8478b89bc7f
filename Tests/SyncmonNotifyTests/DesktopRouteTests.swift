import Foundation
import SyncmonSystemd
import SyncmonTestSupport
import Testing

/// `desktop = yes` on the real binary (docs/notifications.md, docs/user-sessions.md): the daemon
/// delivers to a notification server on its session bus (python3-dbusmock's, on a private
/// dbus-daemon), replaces the pair's notification when it resolves, and counts a missing
/// server as a failed delivery without harm to anything else.
@Suite("The desktop route")
struct DesktopRouteTests {
    static var available: Bool {
        let here = NotificationServerBus.isAvailable
        if !here && ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("dbus-daemon and python3-dbusmock are needed (scripts/install-deps.sh --test)")
        }
        return here
    }

    static func session(server: Bool) async throws -> NotificationServerBus {
        try await NotificationServerBus(server: server) { address in (try? DesktopNotificationBus(address: address).capabilities()) != nil }
    }

    static let route = "[notify desk]\ndesktop = yes\nhold = 1s\ngroup = 1s\nrepeat = 0\npage-url = http://nas.local:9478\n"

    @Test("a failing pair is a critical notification with its page; its recovery replaces it")
    func firesAndReplaces() async throws {
        guard Self.available else { return }
        let session = try await Self.session(server: true)
        let directory = try TemporaryDirectory(prefix: "smdr")
        defer { directory.remove() }
        let arguments = try NotifyDaemonTests.config(directory, Self.route)
        let daemon = try await DaemonProcess.start(
            in: directory.path, arguments: arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": session.address])
        try daemon.send(lines: [NotifyDaemonTests.export("notes", id: "a", failed: true)])
        let fired = await Polling.until(timeout: .seconds(15)) { session.calls().contains("Notify \"syncmon\" 0 ") }
        #expect(fired, "\(session.calls()) \(daemon.standardError)")
        // The server logs one call per line, but a body's own newlines break it up: each call is
        // the text from its `Notify` on.
        let first = session.calls()
        #expect(first.contains("notes"), "\(first)")
        #expect(first.contains("Speicher voll"), "the failure's own words: \(first)")
        #expect(first.contains(#"["default", "Open the page"]"#), "\(first)")
        #expect(first.contains(#"<a href="http://nas.local:9478/pair/notes/"#), "\(first)")
        #expect(first.contains(#"{"urgency": 2"#), "\(first)")

        try daemon.send(lines: [NotifyDaemonTests.export("notes", id: "b", failed: false)])
        let replaced = await Polling.until(timeout: .seconds(15)) { session.calls().contains("Notify \"syncmon\" 1 ") }
        #expect(replaced, "the resolution replaces notification 1: \(session.calls())")
        let second = session.calls().components(separatedBy: "Notify \"syncmon\" 1 ").last ?? ""
        #expect(second.contains(#"{"urgency": 1"#), "\(second)")
        #expect(await Polling.until(timeout: .seconds(10)) { NotifyDaemonTests.counter(daemon, route: "desk", event: "resolved", outcome: "sent") == 1 })
        await daemon.stop()
    }

    @Test("no notification server: a failed delivery, counted and retried, the daemon unharmed")
    func noServer() async throws {
        guard Self.available else { return }
        let session = try await Self.session(server: false)
        let directory = try TemporaryDirectory(prefix: "smdr")
        defer { directory.remove() }
        let arguments = try NotifyDaemonTests.config(directory, Self.route)
        let daemon = try await DaemonProcess.start(
            in: directory.path, arguments: arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": session.address])
        try daemon.send(lines: [NotifyDaemonTests.export("notes", id: "a", failed: true)])
        let failed = await Polling.until(timeout: .seconds(15)) {
            (NotifyDaemonTests.counter(daemon, route: "desk", event: "firing", outcome: "failed") ?? 0) >= 1
        }
        #expect(failed, "\(daemon.standardError)")
        #expect(daemon.standardError.contains("no notification server"), "\(daemon.standardError)")
        #expect((try? daemon.metrics().samples("syncmon_notifications_pending", ["route": "desk"]).first?.number) == 1)
        #expect(await daemon.stop() == .exited(0))
    }
}
