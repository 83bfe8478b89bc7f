import Foundation
import SyncmonCore
import Testing

/// The history document (docs/protocol.md, "History JSON") and its lines in a terminal
/// (`syncmon status --history`).
@Suite("History document")
struct HistoryDocumentTests {
    static let photos = PairKey(engine: name("photos"), database: .shared)

    static let document = HistoryDocument(
        now: at(100),
        pairs: [
            HistoryDocument.Pair(
                key: notesKey,
                changes: [
                    HealthChange(time: at(0), from: nil, to: .notStarted),
                    HealthChange(time: at(20), from: .notStarted, to: .error, phase: .export, code: "quotaExceeded", message: "Storage full"),
                    HealthChange(time: at(61), from: .error, to: .succeeded),
                ]),
            HistoryDocument.Pair(key: photos, changes: [HealthChange(time: at(30), from: .succeeded, to: .stalled, reason: "no_progress")]),
        ])

    @Test("written with sorted keys, names for summaries, `from` null for a first verdict")
    func compactText() {
        let text = String(decoding: Self.document.json(pretty: false), as: UTF8.self)
        let expected =
            #"{"now":"2026-11-21T12:01:40Z","pairs":[{"changes":["#
            + #"{"from":null,"time":"2026-11-21T12:00:00Z","to":"not_started"},"#
            + #"{"code":"quotaExceeded","from":"not_started","message":"Storage full","phase":"export","time":"2026-11-21T12:00:20Z","to":"error"},"#
            + #"{"from":"error","time":"2026-11-21T12:01:01Z","to":"succeeded"}"#
            + #"],"database":"private","engine":"notes"},"#
            + #"{"changes":[{"from":"succeeded","reason":"no_progress","time":"2026-11-21T12:00:30Z","to":"stalled"}],"database":"shared","engine":"photos"}]}"#
            + "\n"
        #expect(text == expected)
    }

    @Test(
        "read back as written, pretty or not, whatever a message holds",
        arguments: [false, true])
    func roundTrip(pretty: Bool) throws {
        var document = Self.document
        document.pairs[0].changes[1].message = "<img src=x onerror=alert(1)> \"quoted\" \\ \n\t\u{1}é"
        let bytes = document.json(pretty: pretty)
        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any])
        #expect(try JSONDecoder().decode(HistoryDocument.self, from: Data(bytes)) == document)
    }

    @Test("every change of every pair in one timeline, newest last")
    func terminalLines() {
        let text = HistoryText.render(Self.document)
        #expect(
            text == """
                2026-11-21 12:00:00  notes/private  new → not_started
                2026-11-21 12:00:20  notes/private  not_started → error  export: quotaExceeded — Storage full
                2026-11-21 12:00:30  photos/shared  succeeded → stalled  no_progress
                2026-11-21 12:01:01  notes/private  error → succeeded

                """)
        #expect(HistoryText.render(HistoryDocument(now: at(0), pairs: [])) == "")
    }

    @Test("what an engine said cannot break a line or drive the terminal")
    func terminalSanitized() {
        let change = HealthChange(time: at(0), from: .succeeded, to: .error, phase: .import, code: "x", message: "line\nbreak \u{1B}[31mred")
        let text = HistoryText.render(HistoryDocument(now: at(0), pairs: [HistoryDocument.Pair(key: notesKey, changes: [change])]))
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(!text.contains("\u{1B}"))
    }

    @Test(
        "the monitor's document: every tracked pair, or one engine's, or one pair; changes from `since`",
        arguments: [
            (nil, nil, nil, ["notes/private": 2, "notes/shared": 1, "photos/private": 1]),
            ("notes", nil, nil, ["notes/private": 2, "notes/shared": 1]),
            ("notes", "shared", nil, ["notes/shared": 1]),
            ("gone", nil, nil, [:]),
            (nil, nil, 15, ["notes/private": 1, "notes/shared": 0, "photos/private": 0]),
        ] as [(String?, String?, Int64?, [String: Int])])
    func monitorDocument(engine: String?, database: String?, since: Int64?, expected: [String: Int]) {
        var monitor = Monitor()
        var changes: [StatusChange] = []
        for (engineName, database) in [("notes", Database.private), ("notes", .shared), ("photos", .private)] {
            monitor.apply(
                Event(engine: name(engineName), database: database, payload: engineStarted()), at: at(0), connection: nil, now: at(0), changes: &changes)
        }
        let failed = container(.export, id: "a", started: 10, ended: 20, succeeded: false, error: SyncError(code: ErrorCode(.quotaExceeded)))
        monitor.apply(Event(engine: notes, payload: failed), at: at(20), connection: nil, now: at(20), changes: &changes)
        let document = monitor.history(at: at(30), engine: engine.map(name), database: database.flatMap { Database($0) }, since: since.map(at))
        #expect(document.now == at(30))
        #expect(Dictionary(uniqueKeysWithValues: document.pairs.map { ("\($0.key)", $0.changes.count) }) == expected)
        #expect(document.pairs.map(\.key) == document.pairs.map(\.key).sorted())
    }
}
