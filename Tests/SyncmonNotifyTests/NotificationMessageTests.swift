import Foundation
import SyncmonCore
import SyncmonNotify
import Testing

/// What a target receives (docs/notifications.md): the `SYNCMON_*` environment of the first
/// pair with the count of all, the JSON document listing every pair, a body the environment
/// can always carry.
@Suite("Notification message")
struct NotificationMessageTests {
    static let notes = PairKey(engine: InlineName("notes")!, database: .private)
    static let photos = PairKey(engine: InlineName("photos")!, database: .shared)
    static let route = NotificationRouteConfiguration(
        name: "ops", policy: .defaults, target: .command(["/bin/true"]), pageURL: "http://nas:9478/")

    static func message(pairs: [PairKey]) -> NotificationMessage {
        let since = Timestamp(microseconds: 1_795_262_400_000_000)
        let notification = RouteNotification(
            id: 1, kind: .firing, pairs: pairs.map { NotifiedPair(pair: $0, summary: .error, previous: $0 == Self.notes ? .succeeded : nil, since: since) },
            decidedAt: since,
            nextAttempt: since)
        return NotificationMessage(notification, route: Self.route, host: "nas", rows: [:], now: since.adding(.seconds(Int64(300))))
    }

    @Test("the environment names the first pair and counts them all")
    func environment() {
        let environment = Self.message(pairs: [Self.notes, Self.photos]).environment
        #expect(environment["SYNCMON_EVENT"] == "firing")
        #expect(environment["SYNCMON_ROUTE"] == "ops")
        #expect(environment["SYNCMON_HOST"] == "nas")
        #expect(environment["SYNCMON_ENGINE"] == "notes")
        #expect(environment["SYNCMON_DATABASE"] == "private")
        #expect(environment["SYNCMON_SUMMARY"] == "error")
        #expect(environment["SYNCMON_PREVIOUS_SUMMARY"] == "succeeded")
        #expect(Self.message(pairs: [Self.photos]).environment["SYNCMON_PREVIOUS_SUMMARY"] == "")
        #expect(environment["SYNCMON_SINCE"] == "2026-11-21T12:00:00Z")
        #expect(environment["SYNCMON_PAIRS"] == "2")
        #expect(environment["SYNCMON_URL"] == "http://nas:9478/pair/notes/private")
        #expect(environment["SYNCMON_TITLE"] == "nas: 2 pairs failing: notes/private error, photos/shared error")
    }

    @Test("the JSON document lists every pair")
    func json() throws {
        let document = try JSONSerialization.jsonObject(with: Data(Self.message(pairs: [Self.notes, Self.photos]).json)) as? [String: Any]
        #expect(document?["count"] as? Int == 2)
        #expect(document?["event"] as? String == "firing")
        let pairs = document?["pairs"] as? [[String: Any]]
        #expect(pairs?.map { "\($0["engine"] ?? "")/\($0["database"] ?? "")" } == ["notes/private", "photos/shared"])
        #expect(pairs?.map { $0["previous"] as? String } == ["succeeded", ""])
    }

    @Test("SYNCMON_BODY is cut to what the environment can carry; the JSON keeps it whole")
    func longBody() throws {
        let many = (0..<2_000).map { PairKey(engine: InlineName(String(format: "engine%04d", $0))!, database: .private) }
        let message = Self.message(pairs: many)
        #expect(message.body.utf8.count > NotificationMessage.environmentBodyLimit)
        #expect((message.environment["SYNCMON_BODY"]?.utf8.count ?? .max) <= NotificationMessage.environmentBodyLimit)
        #expect(String(decoding: message.json, as: UTF8.self).contains("engine1999"))
    }
}
