import NIOPosix
import SyncmonCore
import SyncmonNotify
import SyncmonTestSupport
import Testing

/// Each target's faults said in words (docs/notifications.md): a missing or failing sendmail, a
/// webhook that redirects, answers 500, never answers, or speaks no TLS. None is delivered;
/// each is a failure whose reason names what went wrong.
@Suite("Notification sender")
struct NotificationSenderTests {
    static let message = NotificationMessage.test(route: "r", host: "nas", url: nil)

    /// Sends the test message through `target` with `timeout` seconds.
    static func send(_ target: NotificationTarget, timeout: Int64 = 5) async throws -> DeliveryOutcome {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let route = NotificationRouteConfiguration(name: "r", policy: .defaults, target: target, timeout: .seconds(timeout))
        let sender = try NotificationSender(route: route, pool: pool)
        let outcome = await sender.send(Self.message)
        await sender.shutdown()
        try await pool.shutdownGracefully()
        return outcome
    }

    /// The reason of a failed outcome; nil when delivered.
    static func reason(_ outcome: DeliveryOutcome) -> String? {
        if case .failed(let reason) = outcome { reason } else { nil }
    }

    @Test("sendmail missing, or refusing, is a failure naming it")
    func sendmail() async throws {
        let missing = try await Self.send(.mail(to: ["a@example.org"], from: "s@example.org", sendmail: "/no/sendmail"))
        #expect(Self.reason(missing)?.contains("/no/sendmail is missing") == true)
        let refusing = try await Self.send(.mail(to: ["a@example.org"], from: "s@example.org", sendmail: "/bin/false"))
        #expect(Self.reason(refusing) == "/bin/false exited with status 1")
        let accepting = try await Self.send(.mail(to: ["a@example.org"], from: "s@example.org", sendmail: "/bin/true"))
        #expect(accepting == .delivered)
    }

    @Test(
        "a webhook's answers: 2xx delivered, a redirect or an error status failed with the status",
        arguments: [
            ("204 No Content", nil), ("301 Moved Permanently\r\nlocation: http://elsewhere/", "HTTP 301 Moved Permanently to http://elsewhere/"),
            ("500 Internal Server Error", "HTTP 500 Internal Server Error"),
        ] as [(String, String?)]
    )
    func webhookStatus(status: String, reason: String?) async throws {
        let server = try StreamTestServer.tcp { connection in
            guard let request = try? connection.readRequest() else { return }
            _ = try? connection.readBody(length: Int(request.headers["content-length"] ?? "0") ?? 0)
            connection.write("HTTP/1.1 \(status)\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            connection.close()
        }
        defer { server.stop() }
        let outcome = try await Self.send(.webhook(WebhookTarget(url: server.baseURL + "/hook")))
        if let reason {
            #expect(Self.reason(outcome)?.hasPrefix(reason) == true, "\(outcome)")
        } else {
            #expect(outcome == .delivered)
        }
        #expect(server.requests.first?.method == "POST")
    }

    @Test("a webhook that never answers fails at the route's timeout")
    func webhookSilent() async throws {
        let server = try StreamTestServer.tcp { connection in
            _ = try? connection.readRequest()
            connection.hold()
        }
        defer { server.stop() }
        let outcome = try await Self.send(.webhook(WebhookTarget(url: server.baseURL + "/hook")), timeout: 1)
        #expect(Self.reason(outcome)?.contains("no answer") == true, "\(outcome)")
    }

    @Test("https to a server that speaks no TLS, or nothing listening, is a failure")
    func webhookUnreachable() async throws {
        let server = try StreamTestServer.tcp { connection in
            connection.write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
            connection.close()
        }
        defer { server.stop() }
        let tls = try await Self.send(.webhook(WebhookTarget(url: "https://127.0.0.1:\(server.port)/hook")))
        #expect(Self.reason(tls) != nil)
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let refused = try await Self.send(.webhook(WebhookTarget(url: "http://127.0.0.1:\(port)/hook")))
        #expect(Self.reason(refused) != nil)
    }
}
