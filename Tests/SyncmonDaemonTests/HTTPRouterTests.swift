import Foundation
import NIOHTTP1
import SyncmonCore
import SyncmonTestSupport
import Testing

@testable import SyncmonDaemon

/// `HTTPRouter.respond`: the whole HTTP API without sockets (docs/protocol.md#status-json).
@Suite("HTTP router")
struct HTTPRouterTests {
    let router: HTTPRouter
    let now = at(10)

    init() {
        let store = MonitorStore(configuration: MonitorConfiguration())
        for (seconds, text) in realisticSteps { feed(store, text + "\n", now: at(seconds)) }
        self.router = HTTPRouter(store: store, renderer: MetricsRenderer(version: "1.2.3", revision: "abc"))
    }

    func get(_ path: String, query: [String: String] = [:], accept: String? = nil) -> HTTPResponse {
        self.router.respond(to: HTTPRequest(method: .GET, path: path, query: query, accept: accept), now: self.now)
    }

    func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test("/ is a small HTML page linking the rest")
    func landingPage() {
        let response = self.get("/")
        #expect(response.status == .ok)
        #expect(response.contentType == "text/html; charset=utf-8")
        let body = String(decoding: response.body, as: UTF8.self)
        for link in ["/metrics", "/healthz", "/api/v1/status"] { #expect(body.contains("href=\"\(link)\"")) }
    }

    @Test("/healthz answers 200")
    func healthz() {
        let response = self.get("/healthz")
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok\n")
    }

    @Test("/api/v1/status says how saving the state goes: behind after failures, caught up after a save")
    func stateSave() throws {
        let health = self.router.renderer.persistence
        var document = try self.json(self.get("/api/v1/status"))
        #expect(JSONSubset.mismatches(expected: ["stateSave": ["failures": 0, "failingInARow": 0]], actual: document) == [])
        #expect((document["stateSave"] as? [String: Any])?["lastSave"] is NSNull)
        _ = health.failed()
        _ = health.failed()
        document = try self.json(self.get("/api/v1/status"))
        #expect(JSONSubset.mismatches(expected: ["stateSave": ["failures": 2, "failingInARow": 2]], actual: document) == [])
        health.succeeded(at: at(9))
        document = try self.json(self.get("/api/v1/status"))
        #expect(
            JSONSubset.mismatches(expected: ["stateSave": ["failures": 2, "failingInARow": 0, "lastSave": "2026-11-21T12:00:09Z"]], actual: document) == [])
    }

    @Test("/api/v1/status lists every pair with the documented keys")
    func status() throws {
        let response = self.get("/api/v1/status")
        #expect(response.status == .ok)
        #expect(response.contentType.hasPrefix("application/json"))
        let document = try self.json(response)
        #expect(document["now"] as? String == "2026-11-21T12:00:10Z")
        let engines = try #require(document["engines"] as? [[String: Any]])
        #expect(engines.map { "\($0["engine"]!)/\($0["database"]!)" } == ["notes/private", "photos/shared"])
        let required = [
            "engine", "database", "summary", "stalled", "account", "network", "setup", "import", "export", "throttledUntil", "pending", "lastEvent", "up",
        ]
        for row in engines {
            for key in required { #expect(row[key] != nil, "missing \(key) in \(row)") }
        }
        let notes = engines[0]
        let expectedNotes: [String: Any] = [
            "summary": "succeeded", "stalled": [String](), "account": "available", "network": "available",
            "setup": ["state": "succeeded"], "import": ["state": "succeeded", "started": "2026-11-21T12:00:02Z", "ended": "2026-11-21T12:00:04Z"],
            "export": ["state": "succeeded"], "pending": ["recordZone": 0, "database": 0], "up": true,
            "lastEvent": "2026-11-21T12:00:09Z",
        ]
        #expect(JSONSubset.mismatches(expected: expectedNotes, actual: notes) == [])
        #expect(notes["throttledUntil"] is NSNull)
        let photos = engines[1]
        let expectedPhotos: [String: Any] = [
            "summary": "error", "network": "unknown",
            "export": ["state": "failed", "error": ["code": "quotaExceeded"]],
            "throttledUntil": "2026-11-21T12:01:03Z",
        ]
        #expect(JSONSubset.mismatches(expected: expectedPhotos, actual: photos) == [])
    }

    @Test("?engine= narrows the rows to one engine")
    func statusForOneEngine() throws {
        let document = try self.json(self.get("/api/v1/status", query: ["engine": "photos"]))
        let engines = try #require(document["engines"] as? [[String: Any]])
        #expect(engines.count == 1)
        #expect(engines.first?["engine"] as? String == "photos")
    }

    @Test("an engine nobody tracks gives no rows, not an error")
    func statusForUnknownEngine() throws {
        let response = self.get("/api/v1/status", query: ["engine": "nosuch"])
        #expect(response.status == .ok)
        let engines = try #require(try self.json(response)["engines"] as? [[String: Any]])
        #expect(engines.isEmpty)
    }

    @Test("an invalid engine name is a bad request", arguments: ["", "bad/name", "a b", String(repeating: "x", count: 65)])
    func statusForInvalidEngine(name: String) {
        let response = self.get("/api/v1/status", query: ["engine": name])
        #expect(response.status == .badRequest)
        #expect(String(decoding: response.body, as: UTF8.self).contains("engine"))
    }

    @Test("unknown paths are 404", arguments: ["/nope", "/metrics/", "/api/v1/status/x", "/api/v2/status", "/METRICS"])
    func notFound(path: String) {
        #expect(self.get(path).status == .notFound)
    }

    @Test("only GET and HEAD are served", arguments: [HTTPMethod.POST, .PUT, .DELETE, .PATCH, .OPTIONS])
    func methodNotAllowed(method: HTTPMethod) {
        for path in ["/", "/metrics", "/api/v1/status"] {
            let response = self.router.respond(to: HTTPRequest(method: method, path: path), now: self.now)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers.contains { $0.0.lowercased() == "allow" && $0.1 == "GET, HEAD" })
        }
    }

    @Test("HEAD is answered like GET")
    func head() {
        let response = self.router.respond(to: HTTPRequest(method: .HEAD, path: "/healthz"), now: self.now)
        #expect(response.status == .ok)
    }

    @Test(
        "/metrics is text 0.0.4 unless the Accept header prefers OpenMetrics",
        arguments: [
            (nil, false),
            ("text/plain", false),
            ("*/*", false),
            ("text/plain;version=0.0.4", false),
            ("application/openmetrics-text; version=1.0.0", true),
            ("application/openmetrics-text", true),
            ("application/openmetrics-text;version=0.0.1", false),
            ("application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.9", false),
            // Prometheus' own scrape header.
            (
                "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
                true
            ),
        ] as [(String?, Bool)])
    func metricsNegotiation(accept: String?, openMetrics: Bool) throws {
        let response = self.get("/metrics", accept: accept)
        #expect(response.status == .ok)
        let body = String(decoding: response.body, as: UTF8.self)
        if openMetrics {
            #expect(response.contentType == "application/openmetrics-text; version=1.0.0; charset=utf-8")
            #expect(body.hasSuffix("# EOF\n"))
            #expect(body.components(separatedBy: "# EOF").count == 2)
        } else {
            #expect(response.contentType == "text/plain; version=0.0.4; charset=utf-8")
            #expect(!body.contains("# EOF"))
            #expect(body.hasSuffix("\n"))
        }
        let metrics = try MetricsText(body)
        #expect(metrics.value("syncmon_build_info", ["version": "1.2.3", "revision": "abc"]) == 1)
        #expect(metrics.value("syncmon_tracked_engines") == 2)
    }

    @Test("the request target is split into path and percent-decoded query")
    func requestParsing() {
        let head = HTTPRequestHead(
            version: .http1_1,
            method: .GET,
            uri: "/api/v1/status?engine=no%74es&flag&x=a+b",
            headers: ["Accept": "application/openmetrics-text; version=1.0.0"]
        )
        let request = HTTPRequest(head: head)
        #expect(request.path == "/api/v1/status")
        #expect(request.query == ["engine": "notes", "flag": "", "x": "a b"])
        #expect(request.accept == "application/openmetrics-text; version=1.0.0")
    }

    /// Found by fuzzing (docs/fuzzing.md): `GET /?=` trapped the daemon on the empty split of
    /// `=`. An empty name is a key like any other, and a name without `=` has an empty value.
    /// Writing this table showed that an incomplete `%` escape also lost the bytes after it.
    @Test(
        "query pieces with an empty name or value are read, not trapped on",
        arguments: [
            ("/?=", ["": ""]),
            ("/?a=b&=&c", ["a": "b", "": "", "c": ""]),
            ("/metrics?=x&y=", ["": "x", "y": ""]),
            ("/?==", ["": "="]),
            ("/?&&", [:]),
            // A `%` without two hex digits is kept with what follows (it used to swallow those bytes).
            ("/?%=%2", ["%": "%2"]),
            ("/?a=%zz&b=%4&c=%+1&d=%41%", ["a": "%zz", "b": "%4", "c": "% 1", "d": "A%"]),
        ] as [(String, [String: String])])
    func emptyQueryNames(uri: String, query: [String: String]) {
        let request = HTTPRequest(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: uri))
        #expect(request.query == query)
        #expect(self.router.respond(to: request, now: self.now).status != .internalServerError)
    }
}
