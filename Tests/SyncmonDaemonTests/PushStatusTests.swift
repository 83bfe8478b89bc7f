import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// Events over the real push socket, read back through `/api/v1/status` and `syncmon status`
/// (docs/protocol.md#transports, docs/protocol.md#status-json, docs/operations.md#commands).
@Suite("Push ingest and status", .serialized)
struct PushStatusTests {
    /// Required keys of every status row (docs/protocol.md#status-json).
    static let requiredKeys = [
        "engine", "database", "summary", "stalled", "account", "network", "setup", "import", "export", "throttledUntil", "pending", "lastEvent", "up",
    ]

    @Test("several engines on one connection and several connections all land in the status JSON")
    func statusJSON() async throws {
        try await withDaemon { daemon, _ in
            // One connection carrying two engines, interleaved, written in pieces.
            let shared = try daemon.connect()
            try shared.write(lines: [
                EventLine.make("notes", "engineStarted", ["heartbeatSeconds": 60]),
                EventLine.make("photos", "engineStarted", ["database": "shared"]),
                EventLine.make("notes", "accountStatus", ["status": "available"]),
                EventLine.make("notes", "networkStatus", ["available": true]),
                EventLine.make("photos", "willSendChanges", ["database": "shared"]),
            ])
            let split = EventLine.make("notes", "willFetchChanges") + "\n"
            try shared.write(String(split.prefix(10)))
            try shared.write(String(split.dropFirst(10)))
            try shared.write(lines: [
                EventLine.make("notes", "fetchedRecordZoneChanges", ["zone": "Notes", "modifications": 5, "deletions": 1]),
                EventLine.make("notes", "didFetchChanges"),
                EventLine.make("photos", "stateUpdate", ["database": "shared", "pendingRecordZoneChanges": 3, "pendingDatabaseChanges": 1]),
            ])
            // A second and a third connection, each for its own engine.
            let backup = try daemon.connect()
            try backup.write(lines: [
                EventLine.make("backup", "engineStarted"),
                EventLine.make("backup", "error", ["phase": "export", "error": ["code": "requestRateLimited", "retryAfter": 3600]]),
            ])
            try daemon.send(lines: [
                EventLine.make("mail", "containerEvent", ["kind": "setup", "id": "s1", "started": "2026-01-01T00:00:00Z"]),
                EventLine.make(
                    "mail", "containerEvent",
                    ["kind": "setup", "id": "s1", "started": "2026-01-01T00:00:00Z", "ended": "2026-01-01T00:00:01Z", "succeeded": true]),
            ])

            let (met, rows) = await daemon.waitForStatus { rows in
                phaseState(rows, "notes/private", "import") == "succeeded" && field(rows, "photos/shared", "pending") != nil
                    && (rows["photos/shared"]?["pending"] as? [String: Any])?["recordZone"] as? Int == 3
                    && summary(rows, "backup/private") == "throttled" && phaseState(rows, "mail/private", "setup") == "succeeded"
            }
            #expect(met, "rows: \(rows)")
            #expect(Set(rows.keys) == ["notes/private", "photos/shared", "backup/private", "mail/private"])
            for (pair, row) in rows {
                for key in Self.requiredKeys { #expect(row[key] != nil, "\(pair) lacks \(key)") }
            }
            let notes: [String: Any] = [
                "engine": "notes", "database": "private", "summary": "succeeded", "stalled": [String](),
                "account": "available", "network": "available", "setup": ["state": "succeeded"],
                "import": ["state": "succeeded"], "export": ["state": "not_started"],
                "pending": ["recordZone": 0, "database": 0], "up": true,
            ]
            #expect(JSONSubset.mismatches(expected: notes, actual: rows["notes/private"]) == [])
            let photos: [String: Any] = [
                "summary": "in_progress", "account": "unknown", "network": "unknown",
                "export": ["state": "in_progress"], "pending": ["recordZone": 3, "database": 1], "up": true,
            ]
            #expect(JSONSubset.mismatches(expected: photos, actual: rows["photos/shared"]) == [])
            #expect(rows["backup/private"]?["throttledUntil"] is String)
            #expect(rows["notes/private"]?["throttledUntil"] is NSNull)
            let mailSetup = rows["mail/private"]?["setup"] as? [String: Any]
            #expect(mailSetup?["started"] as? String == "2026-01-01T00:00:00Z")
            #expect(mailSetup?["ended"] as? String == "2026-01-01T00:00:01Z")
            for row in rows.values {
                let lastEvent = try #require(row["lastEvent"] as? String)
                #expect(lastEvent.hasSuffix("Z"))
            }
            // ?engine= narrows to that engine's rows.
            #expect(Set(try daemon.status(engine: "photos").keys) == ["photos/shared"])
            #expect(try daemon.status(engine: "nosuch").isEmpty)
            #expect(try daemon.get("/api/v1/status?engine=bad%2Fname").status == 400)
            shared.close()
            backup.close()
        }
    }

    /// `syncmon status --url …` against one daemon holding an engine of each severity.
    @Test("syncmon status exits 0/1/2/3 by the Nagios convention")
    func statusCommand() async throws {
        try await withDaemon { daemon, _ in
            try daemon.send(lines: [
                EventLine.make("fine", "willFetchChanges"),
                EventLine.make("fine", "didFetchChanges"),
                EventLine.make("offline", "networkStatus", ["available": false]),
                EventLine.make("broken", "willSendChanges"),
                EventLine.make(
                    "broken", "sentRecordZoneChanges",
                    [
                        "savedRecords": 0, "deletedRecords": 0, "failedRecordDeletes": [], "failedRecordSaves": [["code": "quotaExceeded"]],
                    ]),
                EventLine.make("broken", "didSendChanges"),
            ])
            let (met, rows) = await daemon.waitForStatus {
                summary($0, "fine/private") == "succeeded" && summary($0, "offline/private") == "no_network"
                    && summary($0, "broken/private") == "error"
            }
            #expect(met, "rows: \(rows)")

            let cases: [(engine: String?, status: Int32, text: String)] = [
                ("fine", 0, "succeeded"),
                ("offline", 1, "no_network"),
                ("broken", 2, "error"),
                // All engines: the worst wins.
                (nil, 2, "broken"),
                // No such engine: no rows, unknown.
                ("nosuch", 3, "No engine named nosuch"),
            ]
            for item in cases {
                let arguments = ["status", "--url", daemon.url] + (item.engine.map { ["--engine", $0] } ?? [])
                let result = try await SyncmonProcess.run(arguments)
                #expect(result.status == item.status, "\(arguments): \(result.standardOutput) \(result.standardError)")
                #expect(result.standardOutput.contains(item.text), "\(arguments): \(result.standardOutput)")
            }

            // An engine name no engine can have: unknown, with a message naming it.
            let invalid = try await SyncmonProcess.run(["status", "--url", daemon.url, "--engine", "bad/name"])
            #expect(invalid.status == 3)
            #expect(invalid.standardError.contains("bad/name"), "\(invalid.standardError)")

            // --json prints the daemon's status document.
            let json = try await SyncmonProcess.run(["status", "--url", daemon.url, "--json", "--engine", "broken"])
            #expect(json.status == 2)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            let engines = try #require(document["engines"] as? [[String: Any]])
            #expect(engines.count == 1)
            let expected: [String: Any] = ["engine": "broken", "summary": "error", "export": ["state": "failed", "error": ["code": "quotaExceeded"]]]
            #expect(JSONSubset.mismatches(expected: expected, actual: engines.first) == [])
            for key in Self.requiredKeys { #expect(engines.first?[key] != nil, "missing \(key)") }
        }
    }

    @Test("syncmon status against no daemon exits 3 with a clear message")
    func statusUnreachable() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let result = try await SyncmonProcess.run(["status", "--url", "http://127.0.0.1:\(port)"])
        #expect(result.status == 3)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("cannot reach the daemon at http://127.0.0.1:\(port)"), "\(result.standardError)")
        let json = try await SyncmonProcess.run(["status", "--url", "http://127.0.0.1:\(port)", "--json"])
        #expect(json.status == 3)
        #expect(!json.standardError.isEmpty)
    }

    @Test("syncmon status against something that is not syncmon exits 3")
    func statusNotSyncmon() async throws {
        try await withDaemon { daemon, _ in
            // A path prefix makes the client ask /nope/api/v1/status: a 404.
            let result = try await SyncmonProcess.run(["status", "--url", daemon.url + "/nope"])
            #expect(result.status == 3)
            #expect(result.standardError.contains("404"), "\(result.standardError)")
        }
    }
}
