import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// `/metrics` and friends over real HTTP (docs/metrics.md, docs/protocol.md#status-json, docs/configuration.md#limits).
@Suite("HTTP server", .serialized)
struct MetricsHTTPTests {
    /// Lines of an exposition that do not change between two scrapes a moment apart.
    /// The lines that cannot change between two scrapes: not the process figures, nor the time
    /// of the last state save (the state is saved while the test scrapes).
    static func stableLines(_ body: [UInt8]) -> [String] {
        String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init).filter {
            !$0.contains("process_") && !$0.hasPrefix("syncmon_state_last_save_timestamp_seconds ")
        }
    }

    @Test("the other responses: gzip through the same compressor when asked and worth it, never for a few bytes")
    func gzipOtherResponses() async throws {
        try await withDaemon { daemon, _ in
            try daemon.send(lines: (0..<20).map { EventLine.make("engine-\($0)", "willFetchChanges") })
            #expect(await daemon.waitForStatus { $0.count == 20 }.met)
            let plain = try daemon.get("/api/v1/status")
            #expect(plain.header("content-encoding") == nil)
            #expect(plain.header("vary") == "accept-encoding")
            let gzipped = try daemon.get("/api/v1/status", headers: [("Accept-Encoding", "gzip")])
            #expect(gzipped.status == 200)
            #expect(gzipped.header("content-encoding") == "gzip")
            #expect(gzipped.header("content-type") == "application/json")
            let document = try JSONSerialization.jsonObject(with: Data(try await ExternalCommand.gunzip(gzipped.body))) as? [String: Any]
            #expect((document?["engines"] as? [Any])?.count == 20)
            let small = try daemon.get("/healthz", headers: [("Accept-Encoding", "gzip")])
            #expect(small.header("content-encoding") == nil)
            #expect(small.text == "ok\n")
        }
    }

    @Test("/metrics: text 0.0.4 by default, gzip when asked, OpenMetrics when preferred")
    func metrics() async throws {
        try await withDaemon { daemon, _ in
            try daemon.send(lines: [
                EventLine.make("notes", "willFetchChanges"),
                EventLine.make("notes", "didFetchChanges"),
                EventLine.make("photos", "networkStatus", ["available": false, "database": "public"]),
            ])
            #expect(await daemon.waitForStatus { $0.count == 2 }.met)

            let plain = try daemon.get("/metrics")
            #expect(plain.status == 200)
            #expect(plain.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(plain.header("content-encoding") == nil)
            let metrics = try MetricsText(plain.text)
            #expect(metrics.samples.allSatisfy { $0.timestamp == nil })
            #expect(metrics.value("syncmon_status", ["engine": "notes", "database": "private", "status": "succeeded"]) == 1)
            #expect(metrics.value("syncmon_status", ["engine": "photos", "database": "public", "status": "no_network"]) == 1)
            #expect(metrics.value("syncmon_tracked_engines") == 2)
            #expect(metrics.value("syncmon_events_received_total", ["transport": "push"]) == 3)
            #expect((metrics.value("process_start_time_seconds") ?? 0) > 1_600_000_000)
            #expect((metrics.value("process_open_fds") ?? 0) > 0)
            #expect((metrics.value("process_resident_memory_bytes") ?? 0) > 0)

            let gzipped = try daemon.get("/metrics", headers: [("Accept-Encoding", "gzip")])
            #expect(gzipped.status == 200)
            #expect(gzipped.header("content-encoding") == "gzip")
            #expect(gzipped.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(Array(gzipped.body.prefix(2)) == [0x1F, 0x8B])
            #expect(gzipped.body.count < plain.body.count / 3)
            let inflated = try await ExternalCommand.gunzip(gzipped.body)
            #expect(Self.stableLines(inflated) == Self.stableLines(plain.body))

            let openMetrics = try daemon.get("/metrics", headers: [("Accept", "application/openmetrics-text; version=1.0.0")])
            #expect(openMetrics.header("content-type") == "application/openmetrics-text; version=1.0.0; charset=utf-8")
            #expect(openMetrics.text.hasSuffix("# EOF\n"))
            #expect(try MetricsText(openMetrics.text).value("syncmon_status", ["engine": "notes", "status": "succeeded"]) == 1)

            // Both at once: OpenMetrics, gzipped.
            let both = try daemon.get("/metrics", headers: [("Accept", "application/openmetrics-text; version=1.0.0"), ("Accept-Encoding", "gzip")])
            #expect(both.header("content-encoding") == "gzip")
            #expect(String(decoding: try await ExternalCommand.gunzip(both.body), as: UTF8.self).hasSuffix("# EOF\n"))

            // gzip refused by weight: plain; deflate only: plain too (gzip is the one coding served).
            let refused = try daemon.get("/metrics", headers: [("Accept-Encoding", "gzip;q=0, identity")])
            #expect(refused.header("content-encoding") == nil)
            #expect(Self.stableLines(refused.body) == Self.stableLines(plain.body))
            let deflate = try daemon.get("/metrics", headers: [("Accept-Encoding", "deflate")])
            #expect(deflate.header("content-encoding") == nil)
            #expect(Self.stableLines(deflate.body) == Self.stableLines(plain.body))

            // HEAD: headers only.
            let head = try BlockingHTTPClient.raw(port: daemon.port, request: Array("HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("content-length").flatMap { Int($0) } ?? 0 > 0)
        }
    }

    @Test("the other endpoints and errors")
    func endpoints() async throws {
        try await withDaemon { daemon, _ in
            let health = try daemon.get("/healthz")
            #expect(health.status == 200)
            #expect(health.text == "ok\n")
            let landing = try daemon.get("/")
            #expect(landing.status == 200)
            #expect(landing.header("content-type")?.hasPrefix("text/html") == true)
            #expect(landing.text.contains("/metrics"))
            #expect(try daemon.get("/nope").status == 404)
            let post = try BlockingHTTPClient.get(port: daemon.port, path: "/metrics", method: "POST")
            #expect(post.status == 405)
            #expect(post.header("allow") == "GET, HEAD")
            let status = try daemon.get("/api/v1/status")
            #expect(status.status == 200)
            #expect(status.header("content-type")?.hasPrefix("application/json") == true)
            #expect(try status.jsonObject()["engines"] as? [Any] != nil)
        }
    }

    @Test("a request head over 8 KiB gets 431; one under the limit is served")
    func requestHeadLimit() async throws {
        try await withDaemon { daemon, _ in
            let big = try daemon.get("/healthz", headers: [("X-Filler", String(repeating: "a", count: 9_000))])
            #expect(big.status == 431)
            let fits = try daemon.get("/healthz", headers: [("X-Filler", String(repeating: "a", count: 7_000))])
            #expect(fits.status == 200)
            // The daemon is still serving afterwards.
            #expect(try daemon.get("/healthz").status == 200)
        }
    }

    @Test("keep-alive: several requests on one connection")
    func keepAlive() async throws {
        try await withDaemon { daemon, _ in
            let request = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let bytes = try BlockingHTTPClient.exchange(port: daemon.port, request: Array(request.utf8))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 2, "\(text)")
        }
    }
}
