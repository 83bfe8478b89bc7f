import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonStatusAPI
import SyncmonTestSupport
import Testing

/// `StateFile`: the persisted state (docs/operations.md#systemd), independent of the daemon.
@Suite("State file")
struct StateFileTests {
    let directory: TemporaryDirectory

    init() throws {
        self.directory = try TemporaryDirectory(prefix: "smsf")
    }

    var stateDirectory: String { self.directory.path("nested/state") }

    func status(_ monitor: Monitor, at now: Timestamp) -> String {
        String(decoding: StatusDocument(now: now, engines: monitor.rows(at: now)).json(), as: UTF8.self)
    }

    @Test("save then load gives back every pair's state")
    func roundTrip() throws {
        let monitor = makeMonitor(realisticSteps)
        let file = StateFile(directory: self.stateDirectory)
        try file.save(monitor, now: at(10))
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".tmp"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        guard case .loaded(let pairs, _, let savedAt) = file.load(now: at(11)) else {
            Issue.record("state did not load")
            return
        }
        #expect(Set(pairs.keys) == Set(monitor.pairs.keys))
        #expect(savedAt == at(10))
        var restored = Monitor()
        for (key, state) in pairs { restored.restore(key, state, savedAt: at(10), start: at(10)) }
        for seconds: Int64 in [10, 100, 10_000] {
            #expect(self.status(restored, at: at(seconds)) == self.status(monitor, at: at(seconds)))
        }
        // Counters survive too.
        let key = PairKey(engine: InlineName("notes")!, database: .private)
        #expect(pairs[key]?.recordsFetched == monitor.pairs[key]?.recordsFetched)
        #expect(pairs[key]?.errors == monitor.pairs[key]?.errors)
    }

    /// The file written a pair at a time holds the whole document as the daemon encoded it
    /// before, all at once, so that files of either kind load alike. (The encoder puts an
    /// object's keys in no fixed order, so both are compared with their keys sorted.)
    @Test("the file is the whole document's encoding, written a pair at a time", arguments: [0, 1, 3])
    func streamedIsWholeDocument(extraEngines: Int) throws {
        var monitor = makeMonitor(realisticSteps)
        for index in 0..<extraEngines {
            monitor.apply(Event(engine: InlineName("extra-\(index)")!, database: .shared, payload: .willFetchChanges), at: at(5))
        }
        let file = StateFile(directory: self.stateDirectory)
        let size = try file.save(monitor, now: at(10))
        let written = try #require(FileManager.default.contents(atPath: file.path))
        let whole = WholeDocument(
            version: 1, savedAt: at(10),
            pairs: monitor.pairs.sorted { $0.key < $1.key }.map { WholeDocument.Entry(engine: $0.key.engine, database: $0.key.database, state: $0.value) })
        func sorted(_ data: Data) throws -> Data {
            try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
        }
        #expect(try sorted(written) == sorted(JSONEncoder().encode(whole)))
        #expect(size == written.count)
        // The pairs in their order.
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        let engines = (object["pairs"] as? [[String: Any]] ?? []).compactMap { $0["engine"] as? String }
        #expect(engines == whole.pairs.map(\.engine.description))
    }

    /// The state file's document, as it was encoded whole.
    struct WholeDocument: Encodable {
        var version: Int
        var savedAt: Timestamp
        var pairs: [Entry]

        struct Entry: Encodable {
            var engine: InlineName
            var database: Database
            var state: PairState
        }
    }

    @Test("a missing file loads as missing")
    func missing() {
        #expect({ if case .missing = StateFile(directory: self.stateDirectory).load(now: at(0)) { true } else { false } }())
    }

    @Test("an empty monitor round-trips to no pairs")
    func empty() throws {
        let file = StateFile(directory: self.stateDirectory)
        try file.save(Monitor(), now: at(0))
        guard case .loaded(let pairs, _, _) = file.load(now: at(1)) else {
            Issue.record("did not load")
            return
        }
        #expect(pairs.isEmpty)
    }

    @Test(
        "a corrupt file is set aside, keeping its bytes, and loading starts empty",
        arguments: [
            "garbage{{{",
            "",
            "{\"version\": 2, \"savedAt\": 0, \"pairs\": []}",
            "{\"version\": 1}",
            "\u{FF}\u{FE}binary",
        ])
    func corrupt(contents: String) throws {
        let file = StateFile(directory: self.stateDirectory)
        try FileManager.default.createDirectory(atPath: self.stateDirectory, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: file.path))
        guard case .corrupt(let aside, let reason) = file.load(now: at(5)) else {
            Issue.record("not reported corrupt")
            return
        }
        #expect(aside == file.path + ".corrupt-\(baseSeconds + 5)")
        #expect(!reason.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(FileManager.default.contents(atPath: aside) == Data(contents.utf8))
        // The next load finds nothing, and a save works again.
        #expect({ if case .missing = file.load(now: at(6)) { true } else { false } }())
        try file.save(makeMonitor(realisticSteps), now: at(7))
        #expect({ if case .loaded(let pairs, _, _) = file.load(now: at(8)) { pairs.count == 2 } else { false } }())
    }

    @Test("a failed save leaves the good file in place")
    func failedSaveKeepsGoodFile() throws {
        let file = StateFile(directory: self.stateDirectory)
        let good = makeMonitor(realisticSteps)
        try file.save(good, now: at(10))
        let before = try Data(contentsOf: URL(fileURLWithPath: file.path))

        // The temporary file cannot be created (a directory is in the way): the save fails…
        try FileManager.default.createDirectory(atPath: file.path + ".tmp", withIntermediateDirectories: false)
        let changed = makeMonitor(realisticSteps + [(20, line("other", "heartbeat"))])
        #expect(throws: (any Error).self) { try file.save(changed, now: at(20)) }
        // …and the good file is untouched and still loads.
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before)
        #expect({ if case .loaded(let pairs, _, _) = file.load(now: at(21)) { pairs.count == 2 } else { false } }())
        try FileManager.default.removeItem(atPath: file.path + ".tmp")

        // Once the obstacle is gone, saving works again.
        try file.save(changed, now: at(22))
        #expect({ if case .loaded(let pairs, _, _) = file.load(now: at(23)) { pairs.count == 3 } else { false } }())
    }

    @Test("a stale temporary file from a crash is never read, and the next save replaces it")
    func staleTemporaryFile() throws {
        let file = StateFile(directory: self.stateDirectory)
        try file.save(makeMonitor(realisticSteps), now: at(10))
        // A crash between write and rename leaves a half-written .tmp behind.
        try Data("{\"version\":1,\"savedAt\":0,\"pai".utf8).write(to: URL(fileURLWithPath: file.path + ".tmp"))
        #expect({ if case .loaded(let pairs, _, _) = file.load(now: at(11)) { pairs.count == 2 } else { false } }())
        try file.save(Monitor(), now: at(12))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".tmp"))
        #expect({ if case .loaded(let pairs, _, _) = file.load(now: at(13)) { pairs.isEmpty } else { false } }())
    }
}

/// A state file written by v1.1 (Tests/Fixtures/state/v1.1.json, saved by the daemon of that
/// release: one engine stopped, one whose connection closed, one promising heartbeats every 20 s
/// on a connection still open, one failing its export): it loads, and its liveness comes from
/// the verdict each pair last reported.
@Suite("State file of v1.1")
struct StateFileVersion1_1Tests {
    static var fixture: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/state/v1.1.json").path
    }

    @Test("loads, keeps stopped and down, gives the promise its grace from the start, and raises no stall")
    func loads() throws {
        let directory = try TemporaryDirectory(prefix: "smsf")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("state"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: directory.path("state/state.json"))
        guard case .loaded(let pairs, _, let savedAt) = StateFile(directory: directory.path("state")).load(now: at(0)) else {
            Issue.record("the v1.1 state file did not load")
            return
        }
        #expect(pairs.count == 4)
        let start = savedAt.adding(.seconds(3_600 as Int64))
        var monitor = Monitor()
        for (key, state) in pairs { monitor.restore(key, state, savedAt: savedAt, start: start) }
        func summary(_ engine: String, after seconds: Int64) -> Summary? {
            monitor.evaluate(PairKey(engine: InlineName(engine)!, database: .private), at: start.adding(.seconds(seconds)))?.summary
        }
        #expect(summary("stopper", after: 0) == .stopped)
        #expect(summary("crashed", after: 0) == .engineDown)
        #expect(summary("failing", after: 0) == .error)
        #expect(summary("promiser", after: 59) != .engineDown)
        #expect(summary("promiser", after: 60) == .engineDown)
        for seconds in stride(from: Int64(0), through: 3_600, by: 30) {
            for change in monitor.changes(at: start.adding(.seconds(seconds))) {
                #expect(change.evaluation.stalls.isEmpty, "\(change.key) at \(seconds) s: \(change.evaluation)")
            }
        }
        // Written again, the file has the v1.2 liveness.
        try StateFile(directory: directory.path("state")).save(monitor, now: start)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: directory.path("state/state.json"))), as: UTF8.self)
        #expect(text.contains(#""liveness":{"state":"stopped"}"#))
    }
}
