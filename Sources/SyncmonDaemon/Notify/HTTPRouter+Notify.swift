import FoundationEssentials
import NIOHTTP1
import SyncmonContract
import SyncmonCore
import SyncmonNotify

/// The notification routes' HTTP API (docs/notifications.md): `POST /api/v1/notify/test?route=NAME`
/// sends a test through the route and answers when it is delivered (200) or failed (502, with
/// the reason), 404 for an unknown route; `GET /api/v1/notify` lists the routes. Answered off
/// the event loop: a delivery may take the route's whole timeout.
extension HTTPRouter {
    /// The answer to a notification request, to be awaited; nil for any other request.
    package func notifyResponse(for request: HTTPRequest, now: Timestamp) -> (@Sendable () async -> HTTPResponse)? {
        guard request.path == "/api/v1/notify" || request.path == "/api/v1/notify/test" else { return nil }
        let service = self.renderer.notifications
        switch (request.path, request.method) {
        case ("/api/v1/notify/test", .POST):
            let name = request.query["route"] ?? ""
            return {
                guard let service, let outcome = await service.test(route: name) else {
                    return Self.json(.notFound, NotifyTestAnswer(route: name, outcome: "unknown_route", reason: "no route named \(name)"))
                }
                switch outcome {
                case .delivered: return Self.json(.ok, NotifyTestAnswer(route: name, outcome: "delivered", reason: nil))
                case .failed(let reason): return Self.json(.badGateway, NotifyTestAnswer(route: name, outcome: "failed", reason: reason))
                }
            }
        case ("/api/v1/notify", .GET), ("/api/v1/notify", .HEAD):
            let routes = (service?.snapshot() ?? []).map { NotifyListAnswer.Route($0, now: now) }
            return { Self.json(.ok, NotifyListAnswer(routes: routes)) }
        default:
            let allowed = request.path == "/api/v1/notify" ? "GET, HEAD" : "POST"
            return {
                var response = HTTPResponse.text(.methodNotAllowed, "\(request.path) takes \(allowed)\n")
                response.headers.append(("allow", allowed))
                return response
            }
        }
    }

    private static func json(_ status: HTTPResponseStatus, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body: [UInt8] = (try? encoder.encode(value)).map { Array($0) } ?? []
        body.append(0x0A)
        return HTTPResponse(status: status, contentType: "application/json", body: body)
    }
}

/// `POST /api/v1/notify/test`'s answer.
package struct NotifyTestAnswer: Codable, Sendable {
    package var route: String
    /// `delivered`, `failed` or `unknown_route`.
    package var outcome: String
    package var reason: String?
}

/// `GET /api/v1/notify`'s answer: each route, its counts and what it owes.
package struct NotifyListAnswer: Codable, Sendable {
    package var routes: [Route]

    /// One route.
    package struct Route: Codable, Sendable {
        package var name: String
        package var target: String
        package var sent: Int
        package var failed: Int
        package var dropped: Int
        package var firing: Int
        package var owed: [Owed]
        package var lastSuccess: String?

        /// One notification owed.
        package struct Owed: Codable, Sendable {
            package var event: String
            package var pairs: [String]
            package var failures: Int
            package var nextAttempt: String
        }

        init(_ snapshot: NotificationRouteSnapshot, now: Timestamp) {
            self.name = snapshot.name
            self.target = snapshot.target
            self.sent = snapshot.counts.filter { $0.key.hasSuffix(" sent") }.values.reduce(0, +)
            self.failed = snapshot.counts.filter { $0.key.hasSuffix(" failed") }.values.reduce(0, +)
            self.dropped = snapshot.counts.filter { $0.key.hasSuffix(" dropped") }.values.reduce(0, +)
            self.firing = snapshot.firing
            self.owed = snapshot.owed.map {
                Owed(event: $0.kind.rawValue, pairs: $0.pairs.map(\.pair.description), failures: $0.failures, nextAttempt: RFC3339.format($0.nextAttempt))
            }
            self.lastSuccess = snapshot.lastSuccess.map(RFC3339.format)
        }
    }
}
