import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonTestSupport
import Testing

/// Each pair's history in the state file (docs/operations.md#history): saved with its pair,
/// read back the same, trimmed to 7 days when saved; a file written before histories were kept
/// (Tests/Fixtures/state/v1.1.json) loads with none, and its restart records nothing.
@Suite("State file history")
struct StateFileHistoryTests {
    static let notesKey = PairKey(engine: InlineName("notes")!, database: .private)

    static var fixture: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/state/v1.1.json").path
    }

    /// A monitor whose `notes/private` went ok → error → ok, each change seen as it happened.
    static func monitorWithHistory() -> Monitor {
        var monitor = Monitor()
        var changes: [StatusChange] = []
        let lines = [
            (0, #"{"v":1,"engine":"notes","type":"engineStarted"}"#),
            (
                20,
                #"{"v":1,"engine":"notes","type":"containerEvent","kind":"export","id":"a","started":"2026-11-21T12:00:10Z","ended":"2026-11-21T12:00:20Z","succeeded":false,"error":{"code":"quotaExceeded","message":"Storage \"full\""}}"#
            ),
            (
                40,
                #"{"v":1,"engine":"notes","type":"containerEvent","kind":"export","id":"b","started":"2026-11-21T12:00:30Z","ended":"2026-11-21T12:00:40Z","succeeded":true}"#
            ),
        ]
        for (seconds, line) in lines {
            guard case .event(let event) = EventDecoder(maximumLineLength: 65_536).decode(Array(line.utf8)) else { continue }
            monitor.apply(event, at: at(Int64(seconds)), connection: nil, now: at(Int64(seconds)), changes: &changes)
        }
        return monitor
    }

    @Test("saved with the pair and read back the same; a restart from it adds no change", arguments: [50, 3_600] as [Int64])
    func roundTrip(start: Int64) throws {
        let directory = try TemporaryDirectory(prefix: "smsh")
        defer { directory.remove() }
        let monitor = Self.monitorWithHistory()
        let history = try #require(monitor.histories[Self.notesKey])
        #expect(history.changes.map(\.to) == [.notStarted, .error, .succeeded])
        let file = StateFile(directory: directory.path("state"))
        try file.save(monitor, now: at(50))
        guard case .loaded(let pairs, let histories, let savedAt) = file.load(now: at(start)) else {
            Issue.record("the state did not load")
            return
        }
        #expect(histories == [Self.notesKey: history])
        var restored = Monitor()
        for (key, state) in pairs { restored.restore(key, state, history: histories[key] ?? PairHistory(), savedAt: savedAt, start: at(start)) }
        #expect(restored.changes(at: at(start)).isEmpty)
        #expect(restored.histories == monitor.histories)
    }

    @Test("changes older than 7 days are not saved; a pair without any has no history key", arguments: [60, 8 * 24 * 3_600] as [Int64])
    func trimmedWhenSaved(now: Int64) throws {
        let directory = try TemporaryDirectory(prefix: "smsh")
        defer { directory.remove() }
        let file = StateFile(directory: directory.path("state"))
        try file.save(Self.monitorWithHistory(), now: at(now))
        let text = String(decoding: try #require(FileManager.default.contents(atPath: file.path)), as: UTF8.self)
        #expect(text.contains(#""history":["#) == (now == 60), "\(text)")
        guard case .loaded(_, let histories, _) = file.load(now: at(now)) else {
            Issue.record("the state did not load")
            return
        }
        #expect(histories[Self.notesKey]?.changes.count == (now == 60 ? 3 : nil))
    }

    @Test("a v1.1 state file loads with no history; its restart records nothing, a later change is recorded and saved")
    func version1_1() throws {
        let directory = try TemporaryDirectory(prefix: "smsh")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("state"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: directory.path("state/state.json"))
        let file = StateFile(directory: directory.path("state"))
        guard case .loaded(let pairs, let histories, let savedAt) = file.load(now: at(0)) else {
            Issue.record("the v1.1 state file did not load")
            return
        }
        #expect(pairs.count == 4)
        #expect(histories.isEmpty)
        let start = savedAt.adding(.seconds(Int64(60)))
        var monitor = Monitor()
        for (key, state) in pairs { monitor.restore(key, state, history: histories[key] ?? PairHistory(), savedAt: savedAt, start: start) }
        _ = monitor.changes(at: start)
        #expect(monitor.histories.isEmpty)
        // The stopped engine speaks again: stopped → not ok, a real change.
        let stopper = PairKey(engine: InlineName("stopper")!, database: .private)
        var changes: [StatusChange] = []
        let later = start.adding(.seconds(Int64(1)))
        monitor.apply(Event(engine: stopper.engine, payload: .heartbeat), at: later, connection: nil, now: later, changes: &changes)
        #expect(monitor.histories[stopper]?.changes.map(\.from) == [.stopped])
        try file.save(monitor, now: later)
        guard case .loaded(_, let saved, _) = file.load(now: later) else {
            Issue.record("the state did not load again")
            return
        }
        #expect(saved == monitor.histories)
    }
}
