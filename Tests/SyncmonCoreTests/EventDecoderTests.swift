import SyncmonCore
import Testing

/// Well-formed lines of every docs/protocol.md#event-types event type decode to their payload, and the docs/protocol.md#envelope envelope
/// (database, time, seq) is read.
@Suite("EventDecoder: accepted lines")
struct EventDecoderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var line: String
        var payload: EventPayload
        var testDescription: String { self.line }

        init(_ body: String, _ payload: EventPayload) {
            self.line = #"{"v":1,"engine":"notes","# + body + "}"
            self.payload = payload
        }
    }

    /// `containerEvent` ids are hashed; the table compares everything else.
    static func normalised(_ payload: EventPayload) -> EventPayload {
        guard case .containerEvent(var event) = payload else { return payload }
        event.identifier = 0
        return .containerEvent(event)
    }

    static func containerPayload(
        _ kind: Phase,
        started: Int64,
        ended: Int64? = nil,
        succeeded: Bool? = nil,
        error: SyncError? = nil
    ) -> EventPayload {
        .containerEvent(ContainerEvent(kind: kind, identifier: 0, started: at(started), ended: ended.map(at), succeeded: succeeded, error: error))
    }

    static let cases: [Case] = [
        // CKSyncEngine family
        Case(#""type":"willFetchChanges""#, .willFetchChanges),
        Case(#""type":"willFetchChanges","reason":"scheduled""#, .willFetchChanges),
        Case(#""type":"willFetchChanges","reason":"manual""#, .willFetchChanges),
        Case(#""type":"willFetchChanges","reason":null"#, .willFetchChanges),
        Case(#""type":"fetchedDatabaseChanges","modifications":3,"deletions":1"#, .fetchedDatabaseChanges(modifications: 3, deletions: 1)),
        Case(#""type":"fetchedDatabaseChanges","modifications":0,"deletions":-0"#, .fetchedDatabaseChanges(modifications: 0, deletions: 0)),
        Case(#""type":"willFetchRecordZoneChanges","zone":"Notes""#, .willFetchRecordZoneChanges),
        Case(#""type":"fetchedRecordZoneChanges","zone":"Notes","modifications":5,"deletions":2"#, .fetchedRecordZoneChanges(modifications: 5, deletions: 2)),
        Case(
            #""type":"fetchedRecordZoneChanges","modifications":9223372036854775807,"deletions":0"#,
            .fetchedRecordZoneChanges(modifications: .max, deletions: 0)),
        Case(#""type":"fetchedRecordZoneChanges","zone":null,"modifications":1,"deletions":0"#, .fetchedRecordZoneChanges(modifications: 1, deletions: 0)),
        Case(#""type":"didFetchRecordZoneChanges","zone":"Notes""#, .didFetchRecordZoneChanges(error: nil)),
        Case(#""type":"didFetchRecordZoneChanges","zone":"Notes","error":null"#, .didFetchRecordZoneChanges(error: nil)),
        Case(
            #""type":"didFetchRecordZoneChanges","zone":"Notes","error":{"code":"zoneNotFound","message":"gone"}"#,
            .didFetchRecordZoneChanges(error: SyncError(code: ErrorCode(.zoneNotFound), message: "gone"))),
        Case(
            #""type":"didFetchRecordZoneChanges","zone":"Z","error":{"code":"requestRateLimited","retryAfter":2.5}"#,
            .didFetchRecordZoneChanges(error: SyncError(code: ErrorCode(.requestRateLimited), retryAfter: TimeSpan(microseconds: 2_500_000)))),
        Case(
            #""type":"didFetchRecordZoneChanges","zone":"Z","error":{"code":"zoneBusy","retryAfter":0}"#,
            .didFetchRecordZoneChanges(error: SyncError(code: ErrorCode(.zoneBusy), retryAfter: .zero))),
        Case(
            #""type":"didFetchRecordZoneChanges","zone":"Z","error":{"code":"zoneBusy","retryAfter":null,"message":null}"#,
            .didFetchRecordZoneChanges(error: err(.zoneBusy))),
        Case(
            #""type":"didFetchRecordZoneChanges","zone":"Z","error":{"code":"myAppSpecific","extra":[1,{"x":2}]}"#,
            .didFetchRecordZoneChanges(error: otherErr("myAppSpecific"))),
        Case(#""type":"didFetchChanges""#, .didFetchChanges),
        Case(#""type":"didFetchChanges","reason":"manual""#, .didFetchChanges),
        Case(#""type":"willSendChanges","reason":"scheduled""#, .willSendChanges),
        Case(
            #""type":"sentDatabaseChanges","savedZones":2,"deletedZones":1,"failedZoneSaves":[],"failedZoneDeletes":[]"#,
            .sentDatabaseChanges(savedZones: 2, deletedZones: 1, failures: FailureDigest())),
        Case(
            #""type":"sentDatabaseChanges","savedZones":0,"deletedZones":0,"failedZoneSaves":[{"code":"quotaExceeded","zone":"A"}],"failedZoneDeletes":[{"code":"zoneBusy","retryAfter":7}]"#,
            .sentDatabaseChanges(savedZones: 0, deletedZones: 0, failures: failures(err(.quotaExceeded), err(.zoneBusy, retryAfter: 7)))
        ),
        Case(
            #""type":"sentRecordZoneChanges","savedRecords":10,"deletedRecords":3,"failedRecordSaves":[],"failedRecordDeletes":[]"#,
            .sentRecordZoneChanges(savedRecords: 10, deletedRecords: 3, failures: FailureDigest())),
        Case(
            #""type":"sentRecordZoneChanges","savedRecords":1,"deletedRecords":0,"failedRecordSaves":[{"code":"serverRecordChanged","recordName":"r1","zone":"Z"},{"code":"networkFailure","retryAfter":3},{"code":"quotaExceeded","message":"full"}],"failedRecordDeletes":[{"code":"unknownItem","retryAfter":1}]"#,
            .sentRecordZoneChanges(
                savedRecords: 1,
                deletedRecords: 0,
                failures: failures(
                    err(.serverRecordChanged), err(.networkFailure, retryAfter: 3), SyncError(code: ErrorCode(.quotaExceeded), message: "full"),
                    err(.unknownItem, retryAfter: 1))
            )
        ),
        Case(#""type":"didSendChanges""#, .didSendChanges),
        Case(#""type":"stateUpdate""#, pending(nil, nil)),
        Case(#""type":"stateUpdate","pendingRecordZoneChanges":3"#, pending(3, nil)),
        Case(#""type":"stateUpdate","pendingRecordZoneChanges":3,"pendingDatabaseChanges":0"#, pending(3, 0)),
        Case(#""type":"stateUpdate","pendingRecordZoneChanges":null,"pendingDatabaseChanges":4"#, pending(nil, 4)),
        Case(#""type":"accountChange","changeType":"signIn""#, .accountChange(.signIn)),
        Case(#""type":"accountChange","changeType":"signOut""#, .accountChange(.signOut)),
        Case(#""type":"accountChange","changeType":"switchAccounts""#, .accountChange(.switchAccounts)),
        // NSPersistentCloudKitContainer family
        Case(#""type":"containerEvent","kind":"setup","id":"A","started":"2026-11-21T12:00:00Z""#, containerPayload(.setup, started: 0)),
        Case(
            #""type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:00Z","ended":null,"succeeded":null,"error":null"#,
            containerPayload(.import, started: 0)),
        Case(
            #""type":"containerEvent","kind":"export","id":"A","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:05Z","succeeded":true"#,
            containerPayload(.export, started: 0, ended: 5, succeeded: true)),
        Case(
            #""type":"containerEvent","kind":"export","id":"A","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:00Z""#,
            containerPayload(.export, started: 0, ended: 0)),
        Case(
            #""type":"containerEvent","kind":"import","id":"A","started":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:09Z","succeeded":false,"error":{"code":"networkFailure"}"#,
            containerPayload(.import, started: 0, ended: 9, succeeded: false, error: err(.networkFailure))
        ),
        // Conditions and lifecycle
        Case(#""type":"accountStatus","status":"available""#, .accountStatus(.available)),
        Case(#""type":"accountStatus","status":"noAccount""#, .accountStatus(.noAccount)),
        Case(#""type":"accountStatus","status":"restricted""#, .accountStatus(.restricted)),
        Case(#""type":"accountStatus","status":"couldNotDetermine""#, .accountStatus(.couldNotDetermine)),
        Case(#""type":"accountStatus","status":"temporarilyUnavailable""#, .accountStatus(.temporarilyUnavailable)),
        Case(#""type":"networkStatus","available":true"#, .networkStatus(available: true)),
        Case(#""type":"networkStatus","available":false"#, .networkStatus(available: false)),
        Case(#""type":"engineStarted""#, engineStarted()),
        Case(#""type":"engineStarted","heartbeatSeconds":null,"version":"2.1""#, engineStarted()),
        Case(#""type":"engineStarted","heartbeatSeconds":30,"version":"2.1""#, engineStarted(heartbeat: 30)),
        Case(#""type":"engineStarted","heartbeatSeconds":0.5"#, .engineStarted(heartbeatInterval: TimeSpan(microseconds: 500_000))),
        Case(#""type":"engineStarted","heartbeatSeconds":1e1"#, engineStarted(heartbeat: 10)),
        Case(#""type":"runStarted""#, .runStarted(heartbeatInterval: nil)),
        Case(#""type":"runStarted","heartbeatSeconds":10,"version":"0.1.0""#, .runStarted(heartbeatInterval: span(10))),
        Case(#""type":"runStarted","heartbeatSeconds":null"#, .runStarted(heartbeatInterval: nil)),
        Case(#""type":"runEnded""#, .runEnded),
        Case(#""type":"forget""#, .forget(allDatabases: true)),
        Case(#""type":"runEnded","heartbeatSeconds":"ignored: not a key of runEnded""#, .runEnded),
        Case(#""type":"heartbeat""#, .heartbeat),
        Case(#""type":"engineStopped""#, .engineStopped),
        Case(#""type":"error","error":{"code":"quotaExceeded"}"#, .error(phase: nil, error: err(.quotaExceeded))),
        Case(#""type":"error","phase":null,"error":{"code":"quotaExceeded"}"#, .error(phase: nil, error: err(.quotaExceeded))),
        Case(
            #""type":"error","phase":"setup","error":{"code":"badContainer","message":"x"}"#,
            .error(phase: .setup, error: SyncError(code: ErrorCode(.badContainer), message: "x"))),
        Case(#""type":"error","phase":"import","error":{"code":"networkUnavailable"}"#, .error(phase: .import, error: err(.networkUnavailable))),
        Case(
            #""type":"error","phase":"export","error":{"code":"requestRateLimited","retryAfter":60}"#,
            .error(phase: .export, error: err(.requestRateLimited, retryAfter: 60))),
    ]

    @Test("every docs/protocol.md#event-types event type decodes with its payload", arguments: cases)
    func decodesPayload(_ testCase: Case) {
        let result = decode(testCase.line)
        guard let event = result.event else {
            Issue.record("expected an event, got \(result.summary)")
            return
        }
        #expect(Self.normalised(event.payload) == Self.normalised(testCase.payload))
        #expect(event.engine == notes)
        #expect(event.database == .private)
        #expect(event.time == nil)
        #expect(event.sequence == nil)
    }

    @Test("the table covers every event type of protocol version 1")
    func coversEveryType() {
        let covered = Set(Self.cases.map { $0.payload.type })
        #expect(covered == Set(EventType.allCases))
        #expect(EventType.allCases.count == 22)
    }

    @Test("each type name on the wire maps to the EventType of the same spelling", arguments: EventType.allCases)
    func typeNames(_ type: EventType) {
        var bytes = Array(type.description.utf8)
        let parsed = bytes.withUnsafeMutableBytes { EventType(UnsafeRawBufferPointer($0)) }
        #expect(parsed == type)
    }

    // MARK: Envelope

    struct EnvelopeCase: Sendable, CustomTestStringConvertible {
        var line: String
        var database: Database
        var time: Timestamp?
        var sequence: Int64?
        var testDescription: String { self.line }
    }

    static let envelopes: [EnvelopeCase] = [
        EnvelopeCase(line: #"{"v":1,"engine":"notes","type":"heartbeat"}"#, database: .private, time: nil, sequence: nil),
        EnvelopeCase(line: #"{"v":1,"engine":"notes","database":"private","type":"heartbeat"}"#, database: .private, time: nil, sequence: nil),
        EnvelopeCase(line: #"{"v":1,"engine":"notes","database":"shared","type":"heartbeat"}"#, database: .shared, time: nil, sequence: nil),
        EnvelopeCase(line: #"{"v":1,"engine":"notes","database":"public","type":"heartbeat"}"#, database: .public, time: nil, sequence: nil),
        // Any store name: a Core Data store, a Syncthing folder id, 64 characters.
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","database":"Notes.sqlite","type":"heartbeat"}"#, database: Database("Notes.sqlite")!, time: nil, sequence: nil),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","database":"abcd-1234_x","type":"heartbeat"}"#, database: Database("abcd-1234_x")!, time: nil, sequence: nil),
        EnvelopeCase(line: #"{"v":1,"engine":"notes","database":"Private","type":"heartbeat"}"#, database: Database("Private")!, time: nil, sequence: nil),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","database":""# + String(repeating: "d", count: 64) + #"","type":"heartbeat"}"#,
            database: Database(String(repeating: "d", count: 64))!,
            time: nil,
            sequence: nil
        ),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","database":null,"time":null,"seq":null,"id":null,"type":"heartbeat"}"#,
            database: .private, time: nil, sequence: nil),
        EnvelopeCase(
            line: #"{"type":"heartbeat","time":"2026-11-21T12:00:30Z","seq":0,"engine":"notes","v":1}"#,
            database: .private, time: at(30), sequence: 0),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","type":"heartbeat","time":"2026-11-21T13:00:30.5+01:00","seq":9223372036854775807}"#,
            database: .private, time: Timestamp(microseconds: at(30).microseconds + 500_000), sequence: .max),
        EnvelopeCase(line: #"{"v":1,"engine":"notes","type":"heartbeat","id":"op-1","seq":42}"#, database: .private, time: nil, sequence: 42),
        // Integers of 18 and 19 digits (the one-pass read takes up to 18), and names that only
        // begin like the two the decoder tries as exact bytes.
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","type":"heartbeat","seq":123456789012345678}"#, database: .private, time: nil, sequence: 123_456_789_012_345_678),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","type":"heartbeat","seq":1234567890123456789}"#, database: .private, time: nil,
            sequence: 1_234_567_890_123_456_789),
        EnvelopeCase(line: #"{"v":1,"engine":"notes","type":"heartbeat","seq":0}"#, database: .private, time: nil, sequence: 0),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","database":"privateer","type":"heartbeat"}"#, database: Database("privateer")!, time: nil, sequence: nil),
        EnvelopeCase(
            line: #"{"v":1,"engine":"notes","database":"shared2","type":"heartbeat"}"#, database: Database("shared2")!, time: nil, sequence: nil),
        EnvelopeCase(line: "  {\t\"v\" : 1 ,\r\n \"engine\" :\"notes\", \"type\":\"heartbeat\" }  \t", database: .private, time: nil, sequence: nil),
    ]

    @Test("the envelope keys database, time and seq are read; absent or null take their defaults", arguments: envelopes)
    func envelope(_ testCase: EnvelopeCase) {
        let result = decode(testCase.line)
        guard let event = result.event else {
            Issue.record("expected an event, got \(result.summary)")
            return
        }
        #expect(event.payload == .heartbeat)
        #expect(event.engine == notes)
        #expect(event.database == testCase.database)
        #expect(event.time == testCase.time)
        #expect(event.sequence == testCase.sequence)
        #expect(event.pair == PairKey(engine: notes, database: testCase.database))
    }

    @Test(
        "engine names of 1 to 64 characters of [A-Za-z0-9._-] are accepted",
        arguments: [
            "a", "Z", "0", ".", "_", "-", "com.example.notes_v2-beta", String(repeating: "x", count: 64),
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz123456789._-",
        ])
    func validEngineNames(_ engine: String) {
        let result = decode(#"{"v":1,"engine":"\#(engine)","type":"heartbeat"}"#)
        #expect(result.event?.engine.description == engine)
    }

    @Test("an escaped engine name is judged after unescaping: \\u0074 is 't'")
    func escapedEngineName() {
        let result = decode(#"{"v":1,"engine":"no\u0074es","type":"heartbeat"}"#)
        #expect(result.event?.engine == notes)
    }

    /// The engine is read in place when it is a plain string and unescaped otherwise; a later
    /// `engine` key replaces an earlier one whichever way either was read.
    @Test(
        "the last engine key wins, plain or escaped",
        arguments: [
            (#""engine":"other","engine":"notes""#, "notes"),
            (#""engine":"other","engine":"no\u0074es""#, "notes"),
            (#""engine":"o\u0074her","engine":"notes""#, "notes"),
            (#""engine":"notes","engine":"bad name""#, nil),
            (#""engine":"notes","engine":"caf\u00e9""#, nil),
            (#""engine":"notes","engine":7"#, nil),
        ] as [(String, String?)])
    func lastEngineKeyWins(keys: String, engine: String?) {
        let result = decode(#"{"v":1,"# + keys + #","type":"heartbeat"}"#)
        #expect(result.event?.engine.description == engine)
    }

    @Test("escapes in type and keys are decoded before matching")
    func escapedTypeAndKey() {
        let result = decode(#"{"\u0076":1,"engine":"notes","type":"heart\u0062eat"}"#)
        #expect(result.event?.payload == .heartbeat)
    }

    @Test("unknown keys are ignored, whatever valid JSON they hold")
    func unknownKeys() {
        let line = #"{"v":1,"engine":"notes","future":{"a":[1,2.5e-3,{"b":null}],"c":true},"x":"y","type":"networkStatus","n":-0.0,"available":false,"z":[]}"#
        #expect(decode(line).event?.payload == .networkStatus(available: false))
    }

    @Test("keys of other event types are not validated for this type")
    func foreignKeysIgnored() {
        // `modifications` belongs to fetch events and `status` to accountStatus: on a heartbeat
        // they are just unknown keys.
        let line = #"{"v":1,"engine":"notes","type":"heartbeat","modifications":"many","status":"bogus","kind":5}"#
        #expect(decode(line).event?.payload == .heartbeat)
    }

    @Test(
        "a zone may hold any string: escapes, surrogate pairs and raw UTF-8",
        arguments: [
            #"caf\u00e9"#, #"\ud83d\ude00"#, "café ☕️ 😀", #"tab\there \"quoted\" \\ slash\/"#, "",
        ])
    func zoneStrings(_ zone: String) {
        let line = #"{"v":1,"engine":"notes","type":"willFetchRecordZoneChanges","zone":"\#(zone)"}"#
        #expect(decode(line).event?.payload == .willFetchRecordZoneChanges)
    }

    @Test("a containerEvent's id pairs start and end: the same string gives the same identifier")
    func containerIdentifiers() {
        func id(_ literal: String) -> UInt64? {
            let line = #"{"v":1,"engine":"notes","type":"containerEvent","kind":"import","id":"\#(literal)","started":"2026-11-21T12:00:00Z"}"#
            guard case .containerEvent(let event)? = decode(line).event?.payload else { return nil }
            return event.identifier
        }
        let a = id("op-A")
        #expect(a != nil)
        #expect(id("op-A") == a)
        #expect(id(#"op-\u0041"#) == a)
        #expect(id("op-B") != a)
        #expect(id("") != a)
        #expect(id(#"\u00e9"#) == id("é"))
    }

    @Test("blank lines decode as blank, not as rejections", arguments: ["", " ", "\t", "\r", "  \t  ", " \r", "\r\n", "\n"])
    func blankLines(_ line: String) {
        #expect(decode(line).isBlank)
    }

    @Test("a trailing \\r is tolerated")
    func trailingCarriageReturn() {
        #expect(decode(#"{"v":1,"engine":"notes","type":"heartbeat"}"# + "\r").event?.payload == .heartbeat)
    }

    @Test("the Collection and raw-buffer entry points agree")
    func entryPointsAgree() {
        let line = Array(#"{"v":1,"engine":"notes","type":"accountStatus","status":"restricted","seq":7}"#.utf8)
        let fromCollection = EventDecoder().decode(line)
        let fromBuffer = line.withUnsafeBytes { EventDecoder().decode($0) }
        #expect(fromCollection.event?.payload == .accountStatus(.restricted))
        #expect(fromBuffer.event?.payload == .accountStatus(.restricted))
        #expect(fromBuffer.event?.sequence == 7)
    }
}

/// The wire spellings the client renders are the ones the decoder parses: one table in the core.
@Suite("Wire names")
struct WireNameTests {
    @Test("every account status an engine can send parses back from its wire name", arguments: AccountStatus.allCases)
    func accountStatus(_ status: AccountStatus) {
        guard let wire = status.wireName else {
            #expect(status == .unknown)
            return
        }
        let parsed = wire.withUTF8Buffer { AccountStatus(wire: UnsafeRawBufferPointer($0)) }
        #expect(parsed == status)
    }

    @Test("every account change parses back from its wire name", arguments: AccountChangeType.allCases)
    func accountChange(_ change: AccountChangeType) {
        let parsed = change.wireName.withUTF8Buffer { AccountChangeType(wire: UnsafeRawBufferPointer($0)) }
        #expect(parsed == change)
    }
}
