import Foundation
import SyncmonCore
import Testing

/// The status JSON of docs/protocol.md#status-json, read back with Foundation.
@Suite("StatusDocument")
struct StatusDocumentTests {
    static func event(_ engine: String, _ database: Database, _ payload: EventPayload) -> Event {
        Event(engine: name(engine), database: database, payload: payload)
    }

    static func event(_ engine: String, _ payload: EventPayload) -> Event {
        Event(engine: name(engine), payload: payload)
    }

    /// notes/private: setup done, export failed (quotaExceeded), pending 3/0, throttled until 105.
    /// notes/shared: an import in progress. photos/private: heartbeats promised every 10 s.
    static func monitor() -> Monitor {
        var monitor = Monitor()
        let steps: [(Int64, Event)] = [
            (0, event("notes", engineStarted())),
            (1, event("notes", .accountStatus(.available))),
            (1, event("notes", .networkStatus(available: true))),
            (2, event("notes", .willSendChanges)),
            (3, event("notes", sentRecords(saved: 0, deleted: 0, err(.quotaExceeded)))),
            (4, event("notes", .didSendChanges)),
            (5, event("notes", pending(3, 0))),
            (5, event("notes", .error(phase: nil, error: err(.requestRateLimited, retryAfter: 100)))),
            (0, event("notes", .shared, .willFetchChanges)),
            (0, event("photos", engineStarted(heartbeat: 10))),
        ]
        for (time, event) in steps { monitor.apply(event, at: at(time)) }
        return monitor
    }

    static func document(_ monitor: Monitor, at now: Timestamp, pretty: Bool = true) throws -> (text: String, object: [String: Any]) {
        let text = statusJSON(rows: monitor.rows(at: now), now: now, pretty: pretty)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
        let object = try #require(parsed as? [String: Any])
        return (text, object)
    }

    static func engines(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require(object["engines"] as? [[String: Any]])
    }

    static let requiredKeys: Set<String> = [
        "engine", "database", "summary", "stalled", "account", "network", "setup", "import", "export", "throttledUntil", "pending",
        "lastEvent", "up",
    ]

    @Test("the document has now and one engine object per row, in row order, with every documented key")
    func shape() throws {
        let (text, object) = try Self.document(Self.monitor(), at: at(10))
        #expect(text.hasSuffix("}\n"))
        #expect(object["now"] as? String == "2026-11-21T12:00:10Z")
        let engines = try Self.engines(object)
        #expect(engines.count == 3)
        #expect(engines.map { $0["engine"] as? String } == ["notes", "notes", "photos"])
        #expect(engines.map { $0["database"] as? String } == ["private", "shared", "private"])
        for engine in engines {
            #expect(Self.requiredKeys.isSubset(of: Set(engine.keys)), "missing \(Self.requiredKeys.subtracting(engine.keys))")
        }
    }

    @Test("a row with a failed phase, pending changes and a running throttle")
    func failedRow() throws {
        let row = try Self.engines(Self.document(Self.monitor(), at: at(10)).object)[0]
        #expect(row["summary"] as? String == "error")
        #expect((row["stalled"] as? [Any])?.isEmpty == true)
        #expect(row["account"] as? String == "available")
        #expect(row["network"] as? String == "available")
        #expect(row["setup"] as? [String: String] == ["state": "succeeded", "started": "2026-11-21T12:00:00Z", "ended": "2026-11-21T12:00:01Z"])
        #expect(row["import"] as? [String: String] == ["state": "not_started"])
        let export = try #require(row["export"] as? [String: Any])
        #expect(Set(export.keys) == ["state", "started", "ended", "error", "failing"])
        #expect(export["state"] as? String == "failed")
        #expect(export["started"] as? String == "2026-11-21T12:00:02Z")
        #expect(export["ended"] as? String == "2026-11-21T12:00:04Z")
        let error = try #require(export["error"] as? [String: Any])
        #expect(error["code"] as? String == "quotaExceeded")
        #expect(error["class"] as? String == "actionable")
        #expect(row["throttledUntil"] as? String == "2026-11-21T12:01:45Z")
        let pending = try #require(row["pending"] as? [String: Any])
        #expect(Set(pending.keys) == ["recordZone", "database"])
        #expect((pending["recordZone"] as? NSNumber)?.intValue == 3)
        #expect((pending["database"] as? NSNumber)?.intValue == 0)
        #expect(row["lastEvent"] as? String == "2026-11-21T12:00:05Z")
        #expect(row["up"] as? Bool == true)
    }

    @Test("throttledUntil is null once passed; stalls are listed; a silent engine is down")
    func later() throws {
        let engines = try Self.engines(Self.document(Self.monitor(), at: at(400)).object)
        let notes = engines[0]
        #expect(notes["throttledUntil"] is NSNull)
        // Setup ended at 1; the throttle ran until 105, so not_syncing fires from 165 on.
        #expect(notes["stalled"] as? [String] == ["not_syncing"])
        #expect(notes["summary"] as? String == "error")
        let shared = engines[1]
        #expect(shared["import"] as? [String: String] == ["state": "in_progress", "started": "2026-11-21T12:00:00Z"])
        #expect(shared["account"] as? String == "unknown")
        #expect(shared["network"] as? String == "unknown")
        #expect(shared["throttledUntil"] is NSNull)
        #expect(shared["stalled"] as? [String] == ["no_progress"])
        #expect(shared["summary"] as? String == "stalled")
        #expect(shared["up"] as? Bool == true)
        let photos = engines[2]
        #expect(photos["up"] as? Bool == false)
        #expect(photos["summary"] as? String == "engine_down")
        #expect(photos["setup"] as? [String: String] == ["state": "in_progress", "started": "2026-11-21T12:00:00Z"])
        #expect(photos["lastEvent"] as? String == "2026-11-21T12:00:00Z")
    }

    @Test("a transient failure carries class transient")
    func transientClass() throws {
        var monitor = Monitor()
        monitor.apply(Self.event("a", container(.import, id: "I", started: 0, ended: 2, error: err(.networkFailure))), at: at(2))
        let row = try Self.engines(Self.document(monitor, at: at(3)).object)[0]
        #expect(row["summary"] as? String == "retrying")
        let phase = try #require(row["import"] as? [String: Any])
        #expect(phase["error"] as? [String: String] == ["code": "networkFailure", "class": "transient"])
    }

    @Test("compact and pretty documents hold the same values")
    func compact() throws {
        let monitor = Self.monitor()
        let pretty = try Self.document(monitor, at: at(10), pretty: true)
        let compact = try Self.document(monitor, at: at(10), pretty: false)
        #expect(compact.text.split(separator: "\n").count == 1)
        #expect(pretty.text.split(separator: "\n").count > 10)
        #expect(NSDictionary(dictionary: pretty.object).isEqual(to: compact.object))
    }

    @Test("no rows: an empty engines array")
    func empty() throws {
        let (_, object) = try Self.document(Monitor(), at: at(0))
        #expect(object["now"] as? String == "2026-11-21T12:00:00Z")
        #expect((object["engines"] as? [Any])?.isEmpty == true)
    }

    @Test("error codes from the wire are escaped as JSON strings")
    func escaping() throws {
        let code = "a\"b\\c\nd\te\u{01}f/é"
        var monitor = Monitor()
        monitor.apply(Self.event("a", .willSendChanges), at: at(0))
        monitor.apply(Self.event("a", sentRecords(saved: 0, deleted: 0, otherErr(code))), at: at(1))
        monitor.apply(Self.event("a", .didSendChanges), at: at(2))
        let row = try Self.engines(Self.document(monitor, at: at(3)).object)[0]
        let export = try #require(row["export"] as? [String: Any])
        #expect((export["error"] as? [String: String])?["code"] == code)
        #expect((export["error"] as? [String: String])?["class"] == "actionable")
    }

    @Test("fractional times are written with their fraction")
    func fractions() throws {
        var monitor = Monitor()
        let time = Timestamp(microseconds: at(0).microseconds + 250_000)
        monitor.apply(Self.event("a", .willFetchChanges), at: time)
        let (_, object) = try Self.document(monitor, at: time)
        #expect(object["now"] as? String == "2026-11-21T12:00:00.25Z")
        let row = try Self.engines(object)[0]
        #expect(row["lastEvent"] as? String == "2026-11-21T12:00:00.25Z")
        #expect((row["import"] as? [String: String])?["started"] == "2026-11-21T12:00:00.25Z")
    }

    @Test("read back, the document is the one written: every state, failing, throttle and null")
    func roundTrip() throws {
        let monitor = Self.monitor()
        for now in [at(0), at(10), at(200)] {
            let text = statusJSON(rows: monitor.rows(at: now), now: now)
            let document = try JSONDecoder().decode(StatusDocument.self, from: Data(text.utf8))
            #expect(document.now == now)
            #expect(document.engines.count == 3)
            #expect(statusJSON(rows: document.engines, now: document.now) == text)
        }
    }

    @Test(
        "reading refuses a document that is not syncmon's",
        arguments: [
            #"{"engines": []}"#,
            #"{"now": "yesterday", "engines": []}"#,
            #"{"now": "2026-11-21T12:00:00Z", "engines": [{"engine": "a b"}]}"#,
        ])
    func refusesForeign(_ text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StatusDocument.self, from: Data(text.utf8)) }
    }
}

/// The state saver's health in the status document and the warning `syncmon status` prints.
@Suite("StateSaveStatus")
struct StateSaveStatusTests {
    @Test("no warning while saves succeed; one naming the last save while they fail")
    func warning() {
        #expect(StateSaveStatus(lastSave: at(0), failures: 3, failingInARow: 0).warning == nil)
        let behind = StateSaveStatus(lastSave: at(0), failures: 3, failingInARow: 2).warning
        #expect(behind?.contains("since 2026-11-21T12:00:00Z") == true)
        #expect(behind?.contains("2 save(s) failed in a row") == true)
        #expect(StateSaveStatus(lastSave: nil, failures: 1, failingInARow: 1).warning?.contains("since the daemon started") == true)
    }

    @Test("a document with stateSave reads back with it; one without, without")
    func roundTrip() throws {
        let save = StateSaveStatus(lastSave: at(5), failures: 1, failingInARow: 1)
        let text = statusJSON(rows: [], now: at(10), stateSave: save)
        #expect(try JSONDecoder().decode(StatusDocument.self, from: Data(text.utf8)).stateSave == save)
        #expect(try JSONDecoder().decode(StatusDocument.self, from: Data(statusJSON(rows: [], now: at(10)).utf8)).stateSave == nil)
    }
}
