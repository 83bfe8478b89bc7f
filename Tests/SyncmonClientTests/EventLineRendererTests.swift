import SyncmonClient
import SyncmonCore
import Testing

/// Every event the client can send is a line the daemon accepts, with the payload meant.
@Suite("Event lines")
struct EventLineRendererTests {
    static let time = RFC3339.parse("2026-11-21T12:00:00.25Z")!

    /// Each event with the payload the daemon's decoder must make of its line.
    static let cases: [(EngineEvent, EventPayload)] = [
        (.willFetchChanges(reason: .scheduled), .willFetchChanges),
        (.willFetchChanges(reason: nil), .willFetchChanges),
        (.fetchedDatabaseChanges(modifications: 3, deletions: 1), .fetchedDatabaseChanges(modifications: 3, deletions: 1)),
        (.willFetchRecordZoneChanges(zone: "Notes"), .willFetchRecordZoneChanges),
        (.fetchedRecordZoneChanges(zone: "Notes", modifications: 12, deletions: 2), .fetchedRecordZoneChanges(modifications: 12, deletions: 2)),
        (.fetchedRecordZoneChanges(zone: nil, modifications: 0, deletions: 0), .fetchedRecordZoneChanges(modifications: 0, deletions: 0)),
        (.didFetchRecordZoneChanges(zone: "Notes", error: nil), .didFetchRecordZoneChanges(error: nil)),
        (
            .didFetchRecordZoneChanges(zone: "Notes", error: EngineError(.networkFailure, message: "lost \"quoted\"\n", retryAfter: .seconds(5))),
            // The message as the daemon keeps it: the newline around it dropped.
            .didFetchRecordZoneChanges(error: syncError("networkFailure", retryAfter: 5, message: #"lost "quoted""#))
        ),
        (.didFetchChanges(reason: .manual), .didFetchChanges),
        (.willSendChanges(reason: nil), .willSendChanges),
        (
            .sentDatabaseChanges(savedZones: 2, deletedZones: 1, failedZoneSaves: [EngineFailure(.zoneBusy, zone: "Tags")], failedZoneDeletes: []),
            .sentDatabaseChanges(savedZones: 2, deletedZones: 1, failures: digest(syncError("zoneBusy")))
        ),
        (
            .sentRecordZoneChanges(
                savedRecords: 10, deletedRecords: 2,
                failedRecordSaves: [
                    EngineFailure(.quotaExceeded, zone: "Notes", recordName: "note-1", message: "full"),
                    EngineFailure(.requestRateLimited, recordName: "note-2", retryAfter: .milliseconds(1500)),
                ],
                failedRecordDeletes: [EngineFailure(code: "myAppError")]
            ),
            .sentRecordZoneChanges(
                savedRecords: 10, deletedRecords: 2,
                failures: digest(
                    syncError("quotaExceeded", message: "full"), syncError("requestRateLimited", retryAfter: 1.5), syncError("myAppError"))
            )
        ),
        (.didSendChanges(reason: .scheduled), .didSendChanges),
        (.stateUpdate(pendingRecordZoneChanges: 3, pendingDatabaseChanges: nil), .stateUpdate(pendingRecordZoneChanges: 3, pendingDatabaseChanges: nil)),
        (.stateUpdate(pendingRecordZoneChanges: 0, pendingDatabaseChanges: 4), .stateUpdate(pendingRecordZoneChanges: 0, pendingDatabaseChanges: 4)),
        (.accountChange(.signIn), .accountChange(.signIn)),
        (.accountChange(.signOut), .accountChange(.signOut)),
        (.accountChange(.switchAccounts), .accountChange(.switchAccounts)),
        (.accountStatus(.available), .accountStatus(.available)),
        (.accountStatus(.noAccount), .accountStatus(.noAccount)),
        (.accountStatus(.restricted), .accountStatus(.restricted)),
        (.accountStatus(.couldNotDetermine), .accountStatus(.couldNotDetermine)),
        (.accountStatus(.temporarilyUnavailable), .accountStatus(.temporarilyUnavailable)),
        (.accountStatus(.unknown), .accountStatus(.couldNotDetermine)),
        (.networkStatus(available: false), .networkStatus(available: false)),
        (.networkStatus(available: true), .networkStatus(available: true)),
        (.engineStarted(heartbeatInterval: .seconds(30), version: "1.2"), .engineStarted(heartbeatInterval: .seconds(30 as Int64))),
        (.engineStarted(heartbeatInterval: .milliseconds(250), version: nil), .engineStarted(heartbeatInterval: .seconds(0.25))),
        (.engineStarted(heartbeatInterval: nil, version: nil), .engineStarted(heartbeatInterval: nil)),
        (.heartbeat, .heartbeat),
        (.engineStopped, .engineStopped),
        (.runStarted(heartbeatInterval: .seconds(10), version: "0.1.0"), .runStarted(heartbeatInterval: .seconds(10 as Int64))),
        (.runStarted(heartbeatInterval: nil, version: nil), .runStarted(heartbeatInterval: nil)),
        (.runEnded, .runEnded),
        (.error(phase: .setup, error: EngineError(.badContainer)), .error(phase: .setup, error: syncError("badContainer"))),
        (
            .error(phase: nil, error: EngineError(.serviceUnavailable, retryAfter: .seconds(60))),
            .error(phase: nil, error: syncError("serviceUnavailable", retryAfter: 60))
        ),
    ]

    @Test("every event renders to a line the daemon decodes to the expected payload", arguments: 0..<Self.cases.count)
    func decodes(index: Int) throws {
        let (event, payload) = Self.cases[index]
        let renderer = EventLineRenderer(engine: "notes", database: .shared)
        let line = renderer.line(for: event, time: Self.time, sequence: 42)
        let decoded = try #require(decodedEvent(line))
        #expect(decoded.payload == payload, "\(line)")
        #expect(decoded.engine.description == "notes")
        #expect(decoded.database == .shared)
        #expect(decoded.time == Self.time)
        #expect(decoded.sequence == 42)
        #expect(!line.contains("\n"))
    }

    @Test("zone, reason, record names and messages are on the wire for the daemon's debug logs")
    func wireDetails() {
        let renderer = EventLineRenderer(engine: "notes")
        let line = renderer.line(
            for: .sentRecordZoneChanges(
                savedRecords: 1, deletedRecords: 0,
                failedRecordSaves: [EngineFailure(.quotaExceeded, zone: "Notes", recordName: "note-1", message: "full")],
                failedRecordDeletes: []
            ),
            time: nil, sequence: nil
        )
        let object = jsonObject(line)
        let failure = (object["failedRecordSaves"] as? [[String: Any]])?.first
        #expect(failure?["zone"] as? String == "Notes")
        #expect(failure?["recordName"] as? String == "note-1")
        #expect(failure?["message"] as? String == "full")
        #expect(object["time"] == nil && object["seq"] == nil)
        #expect(object["database"] as? String == "private")
        #expect(jsonObject(renderer.line(for: .willFetchChanges(reason: .manual), time: nil, sequence: nil))["reason"] as? String == "manual")
    }

    @Test("containerEvent start and end decode with the same id hash, times and outcome")
    func containerEvent() throws {
        let renderer = EventLineRenderer(engine: "photos")
        let started = Self.time
        let start = ContainerActivity(kind: .export, id: "op-7", started: started)
        let end = start.ending(at: started.adding(.seconds(3 as Int64)), succeeded: false, error: EngineError(.quotaExceeded))
        guard case .containerEvent(let first) = try #require(decodedEvent(renderer.line(for: .containerEvent(start), time: started, sequence: 1))).payload,
            case .containerEvent(let second) = try #require(decodedEvent(renderer.line(for: .containerEvent(end), time: nil, sequence: 2))).payload
        else {
            Issue.record("not container events")
            return
        }
        #expect(first.identifier == second.identifier)
        #expect(first.kind == .export && first.started == started && first.ended == nil)
        #expect(second.ended == started.adding(.seconds(3 as Int64)))
        #expect(second.succeeded == false)
        #expect(second.error == syncError("quotaExceeded"))
        // An end before its start would be rejected: it is moved to the start.
        let early = start.ending(at: started.adding(.seconds(-5 as Int64)), succeeded: true)
        #expect(decodedEvent(renderer.line(for: .containerEvent(early), time: nil, sequence: 3)) != nil)
    }

    @Test("values the daemon would reject are made acceptable")
    func sanitising() throws {
        let renderer = EventLineRenderer(engine: "bad name/ü")
        #expect(renderer.engine == "bad_name___")
        let negative = renderer.line(for: .fetchedDatabaseChanges(modifications: -3, deletions: -1), time: nil, sequence: -5)
        #expect(try #require(decodedEvent(negative)).payload == .fetchedDatabaseChanges(modifications: 0, deletions: 0))
        let emptyCode = renderer.line(for: .error(phase: nil, error: EngineError(code: "", retryAfter: .seconds(-4))), time: nil, sequence: nil)
        #expect(try #require(decodedEvent(emptyCode)).payload == .error(phase: nil, error: syncError("unknown", retryAfter: 0)))
        let longMessage = String(repeating: "é", count: 100_000)
        let long = renderer.line(for: .error(phase: .export, error: EngineError(code: "x", message: longMessage)), time: nil, sequence: nil)
        #expect(long.utf8.count < 4_000)
        #expect(decodedEvent(long) != nil)
        #expect(EventLineRenderer.sanitizedEngineName("") == "engine")
        #expect(EventLineRenderer.sanitizedEngineName(String(repeating: "a", count: 80)).count == 64)
        #expect(EventLineRenderer.isValidEngineName("notes.v2_x-1"))
        #expect(!EventLineRenderer.isValidEngineName("notes v2"))
    }

    @Test("a failure list too long for one line keeps every count and code across lines within 64 KiB")
    func splitting() throws {
        let renderer = EventLineRenderer(engine: "bulk")
        let saves = (0..<3_000).map {
            EngineFailure(
                .quotaExceeded, zone: "Notes", recordName: "record-\($0)-" + String(repeating: "x", count: 40), message: "The user's iCloud storage is full.")
        }
        let deletes = (0..<500).map { EngineFailure(.unknownItem, recordName: "gone-\($0)") }
        let lines = renderer.lines(
            for: .sentRecordZoneChanges(savedRecords: 17, deletedRecords: 4, failedRecordSaves: saves, failedRecordDeletes: deletes),
            time: Self.time, sequence: 9
        )
        #expect(lines.count > 1)
        var total = FailureDigest()
        var saved: Int64 = 0
        var deleted: Int64 = 0
        for (index, line) in lines.enumerated() {
            #expect(line.utf8.count <= EventLineRenderer.maximumLineLength)
            let event = try #require(decodedEvent(line))
            #expect(event.sequence == (index == 0 ? 9 : nil))
            guard case .sentRecordZoneChanges(let s, let d, let failures) = event.payload else {
                Issue.record("wrong type")
                continue
            }
            saved += s
            deleted += d
            total.merge(failures)
        }
        #expect(saved == 17 && deleted == 4)
        #expect(total.count == 3_500)
        #expect(total.codes.entries.map { "\($0.0)=\($0.1)" } == ["quotaExceeded=3000", "unknownItem=500"])
        // A list that fits only without its details is sent as one line without them.
        let medium = (0..<700).map { EngineFailure(.quotaExceeded, recordName: "record-\($0)-" + String(repeating: "y", count: 80)) }
        let compact = renderer.lines(
            for: .sentRecordZoneChanges(savedRecords: 1, deletedRecords: 0, failedRecordSaves: medium, failedRecordDeletes: []), time: nil, sequence: 1)
        #expect(compact.count == 1)
        #expect(!compact[0].contains("recordName"))
    }

    @Test("numbers: whole seconds without a fraction, fractions in the shortest form")
    func numbers() {
        let renderer = EventLineRenderer(engine: "n")
        #expect(
            renderer.line(for: .engineStarted(heartbeatInterval: .seconds(30), version: nil), time: nil, sequence: nil).hasSuffix("\"heartbeatSeconds\":30}"))
        #expect(
            renderer.line(for: .engineStarted(heartbeatInterval: .milliseconds(1500), version: nil), time: nil, sequence: nil).hasSuffix(
                "\"heartbeatSeconds\":1.5}"))
        #expect(renderer.line(for: .engineStarted(heartbeatInterval: .zero, version: nil), time: nil, sequence: nil).hasSuffix("\"engineStarted\"}"))
    }
}
