import Foundation
import NIOHTTP1
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

/// `GET /api/v1/history` through `HTTPRouter.respond` (docs/protocol.md, "History JSON").
@Suite("History endpoint")
struct HistoryRouterTests {
    let router: HTTPRouter

    init() {
        let store = MonitorStore(configuration: MonitorConfiguration())
        for (seconds, text) in realisticSteps { feed(store, text + "\n", now: at(seconds)) }
        self.router = HTTPRouter(store: store, renderer: MetricsRenderer(version: "1.2.3", revision: "abc"))
    }

    func get(_ query: [String: String] = [:]) -> HTTPResponse {
        self.router.respond(to: HTTPRequest(method: .GET, path: "/api/v1/history", query: query), now: at(10))
    }

    @Test("every pair with its changes: the first verdict, then each change of health with why")
    func document() throws {
        let response = self.get()
        #expect(response.status == .ok)
        #expect(response.contentType == "application/json")
        let document = try JSONDecoder().decode(HistoryDocument.self, from: Data(response.body))
        #expect(document.now == at(10))
        #expect(document.pairs.map(\.key.description) == ["notes/private", "photos/shared"])
        let photos = try #require(document.pairs.last?.changes)
        #expect(photos.first?.from == nil)
        #expect(photos.contains { $0.to == .error && $0.phase == .export && $0.code == "quotaExceeded" })
        let object = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let first = try #require(((object["pairs"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]])?.first)
        #expect(first["from"] is NSNull)
    }

    @Test(
        "the query narrows it",
        arguments: [
            (["engine": "photos"], ["photos/shared"]),
            (["engine": "photos", "database": "shared"], ["photos/shared"]),
            (["engine": "photos", "database": "private"], []),
            (["engine": "gone"], []),
            (["since": "2030-01-01T00:00:00Z"], ["notes/private", "photos/shared"]),
        ])
    func narrowed(query: [String: String], pairs: [String]) throws {
        let document = try JSONDecoder().decode(HistoryDocument.self, from: Data(self.get(query).body))
        #expect(document.pairs.map(\.key.description) == pairs)
        if query["since"] != nil { #expect(document.pairs.allSatisfy { $0.changes.isEmpty }) }
    }

    @Test(
        "a query that cannot be understood is a bad request saying why",
        arguments: [
            (["engine": "bad/name"], "engine names"),
            (["engine": ""], "engine names"),
            (["database": "private"], "database goes with engine"),
            (["engine": "notes", "database": "a b"], "database names"),
            (["since": "yesterday"], "since is an RFC 3339 time"),
            (["since": "2026-11-28T10:00:00 01:00"], "since is an RFC 3339 time"),
        ])
    func badRequest(query: [String: String], says: String) {
        let response = self.get(query)
        #expect(response.status == .badRequest)
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix(says))
    }
}
