import Foundation
import SyncmonSystemd
import SyncmonTestSupport
import Testing

/// The desktop route's bus client against a real session bus (dbus-daemon) and a notification
/// server (python3-dbusmock's `notification_daemon` template, which logs every call it gets).
@Suite("Desktop notifications on a session bus", .serialized)
struct DesktopNotificationBusTests {
    static func session(server: Bool) async throws -> NotificationServerBus {
        try await NotificationServerBus(server: server) { address in (try? DesktopNotificationBus(address: address).capabilities()) != nil }
    }

    /// Whether the real components are here; under CI they must be (scripts/install-deps.sh --test).
    static var available: Bool {
        let here = NotificationServerBus.isAvailable
        if !here && ProcessInfo.processInfo.environment["CI"] != nil {
            Issue.record("dbus-daemon and python3-dbusmock are needed (scripts/install-deps.sh --test)")
        }
        return here
    }

    @Test("Notify reaches the server with the app name, summary, body, urgency and the page as the default action; a second replaces the first")
    func notifies() async throws {
        guard Self.available else { return }
        let session = try await Self.session(server: true)
        let bus = try DesktopNotificationBus(address: session.address)
        let capabilities = try bus.capabilities()
        #expect(capabilities.contains("actions"))
        var notification = DesktopNotification(
            summary: "nas/photos: error", body: "export: quotaExceeded since 11:56 — <full>", urgency: .critical,
            link: "http://nas:9478/pair/nas/photos")
        let id = try bus.notify(notification, capabilities: capabilities)
        #expect(id > 0)
        notification.replacesID = id
        notification.summary = "nas/photos: ok again"
        notification.urgency = .normal
        #expect(try bus.notify(notification, capabilities: capabilities) == id)
        let calls = session.calls()
        #expect(calls.contains("Notify \"syncmon\" 0 \"dialog-warning\" \"nas/photos: error\""), "\(calls)")
        #expect(calls.contains("Notify \"syncmon\" \(id) "), "\(calls)")
        #expect(calls.contains("[\"default\", \"Open the page\"]"), "no default action: \(calls)")
        #expect(calls.contains("&lt;full&gt;\n<a href=\"http://nas:9478/pair/nas/photos\">"), "no escaped body with the link: \(calls)")
        #expect(calls.contains("{\"urgency\": 2, \"category\": \"transfer.error\""), "\(calls)")
        #expect(calls.contains("{\"urgency\": 1,"), "\(calls)")
    }

    @Test("no notification server: a failed delivery that names what is missing")
    func noServer() async throws {
        guard Self.available else { return }
        let session = try await Self.session(server: false)
        let bus = try DesktopNotificationBus(address: session.address, timeoutMicroseconds: 2_000_000)
        #expect {
            _ = try bus.notify(DesktopNotification(summary: "s", body: "b", urgency: .normal), capabilities: [])
        } throws: { error in
            "\(error)".contains("no notification server on the session bus")
        }
    }

    @Test("no session bus at all: the error says how to get one")
    func noBus() throws {
        #expect {
            _ = try DesktopNotificationBus(address: "unix:path=/nonexistent/syncmon-test-bus")
        } throws: { error in
            "\(error)".contains("cannot connect to the session bus")
        }
    }

    @Test(
        "the body: plain for a plain server, escaped with markup, the link as a hyperlink where rendered",
        arguments: [
            ([], "a <b> & c"),
            (["body-markup"], "a &lt;b&gt; &amp; c"),
            (["body-markup", "body-hyperlinks"], "a &lt;b&gt; &amp; c\n<a href=\"http://h/p?x=1&amp;y\">http://h/p?x=1&amp;y</a>"),
        ] as [(Set<String>, String)]
    )
    func body(capabilities: Set<String>, expected: String) {
        let notification = DesktopNotification(summary: "s", body: "a <b> & c", urgency: .normal, link: "http://h/p?x=1&y")
        #expect(notification.renderedBody(capabilities: capabilities) == expected)
    }

    @Test("a link the body already names becomes the hyperlink there, not a second copy")
    func linkInBody() {
        let notification = DesktopNotification(
            summary: "s", body: "nas/photos: error\n  http://h/pair/nas/photos\n", urgency: .critical, link: "http://h/pair/nas/photos")
        #expect(
            notification.renderedBody(capabilities: ["body-markup", "body-hyperlinks"])
                == "nas/photos: error\n  <a href=\"http://h/pair/nas/photos\">http://h/pair/nas/photos</a>\n")
        #expect(notification.renderedBody(capabilities: ["body-markup"]) == "nas/photos: error\n  http://h/pair/nas/photos\n")
    }
}
