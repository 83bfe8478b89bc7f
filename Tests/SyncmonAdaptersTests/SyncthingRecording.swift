import Foundation
import SyncmonAdapters
import SyncmonCore
import Testing

/// A scenario recorded from two real Syncthing 1.19.2 instances, A and B, under
/// `Tests/Fixtures/syncthing/<name>/` (made by `scripts/syncthing/fixtures.py`): a timeline of poll
/// answers, poll failures and snapshots, the events as received, and the snapshots' REST answers.
struct SyncthingRecording: Sendable {
    /// One line of `timeline`.
    struct Step: Sendable {
        enum Kind: Sendable {
            /// Take this snapshot now (a scenario's start).
            case snapshot(String)
            /// A snapshot recorded then, for when the adapter asks for one.
            case availableSnapshot(String)
            /// A poll answered the events with these ids (none: `[]`).
            case answer(ClosedRange<Int>?)
            /// A poll failed (`refused`, `timeout`, …).
            case failed(String)
            /// What the recorder did, for the reader.
            case action(String)
        }

        var time: Timestamp
        /// `A`, `B`, or `-` for actions.
        var engine: String
        var kind: Kind
    }

    let name: String
    let steps: [Step]
    /// Each engine's recorded events by id, as the raw JSON of one array element.
    let events: [String: [Int: String]]

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/syncthing")

    init(_ name: String) throws {
        self.name = name
        let base = Self.directory.appendingPathComponent(name)
        let timeline = try String(contentsOf: base.appendingPathComponent("timeline"), encoding: .utf8)
        self.steps = try timeline.split(separator: "\n").compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            if line.hasPrefix("#") || content.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            let fields = content.split(separator: " ").map(String.init)
            guard fields.count >= 3, let time = RFC3339.parse(fields[0]) else { throw FixtureError("bad timeline line: \(line)") }
            let kind: Step.Kind
            switch fields[2] {
            case "snapshot" where line.contains("# available"): kind = .availableSnapshot(fields[3])
            case "snapshot": kind = .snapshot(fields[3])
            case "answer" where fields.count == 5: kind = .answer(Int(fields[3])!...Int(fields[4])!)
            case "answer": kind = .answer(nil)
            case "failed": kind = .failed(fields.dropFirst(3).joined(separator: " "))
            case "action": kind = .action(fields.dropFirst(3).joined(separator: " "))
            default: throw FixtureError("unknown step: \(line)")
            }
            return Step(time: time, engine: fields[1], kind: kind)
        }
        var events: [String: [Int: String]] = [:]
        for engine in ["A", "B"] {
            let text = try String(contentsOf: base.appendingPathComponent("\(engine).events.jsonl"), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                events[engine, default: [:]][object["id"] as! Int] = String(line)
            }
        }
        self.events = events
    }

    /// The body of one poll answer: the recorded events, as the JSON array Syncthing sent.
    func body(_ engine: String, _ ids: ClosedRange<Int>?) throws -> [UInt8] {
        guard let ids else { return Array("[]".utf8) }
        let lines = try ids.map { id in
            guard let line = self.events[engine]?[id] else { throw FixtureError("\(self.name): \(engine) has no event \(id)") }
            return line
        }
        return Array(("[" + lines.joined(separator: ",") + "]").utf8)
    }

    /// The recorded answer to one snapshot request.
    func answer(_ engine: String, snapshot: String, _ request: SyncthingRequest) throws -> [UInt8] {
        let file: String =
            switch request {
            case .systemStatus: "system-status.json"
            case .latestEvent: "latest-event.json"
            case .connections: "connections.json"
            case .config: "config.json"
            case .folderStatus(let folder): "db-status.\(folder).json"
            case .folderErrors(let folder): "folder-errors.\(folder).json"
            case .completion(let folder, let device): "completion.\(folder).\(device).json"
            }
        let url = Self.directory.appendingPathComponent("\(self.name)/\(engine).\(snapshot)/\(file)")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FixtureError("\(self.name): snapshot \(engine).\(snapshot) has no answer to \(request)")
        }
        return Array(data)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A recorded scenario played through two adapters (engines `a` and `b`, as the outside check
/// names them) into one `Monitor`, the way the daemon's source does: events applied at their own
/// time, tied to one connection per source, the connection closed when a poll fails.
struct SyncthingPlayback {
    let recording: SyncthingRecording
    var monitor = Monitor()
    var adapters: [String: SyncthingAdapter]
    var notices: [String: [SyncthingNotice]] = ["A": [], "B": []]
    /// Every event each adapter produced, in order.
    var produced: [String: [Event]] = ["A": [], "B": []]
    /// Snapshots taken, as "engine name".
    var snapshotsTaken: [String] = []
    private var next = 0
    private var used: Set<Int> = []
    /// When each source last had an answer (poll or snapshot).
    private var lastAnswer: [String: Timestamp] = [:]
    /// Sources whose latest poll failed.
    private var failing: Set<String> = []

    static let connection = ["A": UInt64(1), "B": UInt64(2)]

    init(_ recording: SyncthingRecording) {
        self.recording = recording
        // The recorder polled with timeout=30.
        self.adapters = [
            "A": SyncthingAdapter(engine: InlineName("a")!, pollTimeoutSeconds: 30),
            "B": SyncthingAdapter(engine: InlineName("b")!, pollTimeoutSeconds: 30),
        ]
    }

    static func key(_ engine: String, _ folder: String = "shared") -> PairKey {
        PairKey(engine: InlineName(engine)!, database: Database(folder)!)
    }

    /// Plays every step up to and including `time`. Past the recording's end, each source whose
    /// Syncthing was up goes on as an idle Syncthing answers: `[]` once per poll timeout.
    mutating func play(through time: Timestamp) throws {
        while self.next < self.recording.steps.count, self.recording.steps[self.next].time <= time {
            try self.perform(self.next)
            self.next += 1
        }
        guard self.next == self.recording.steps.count else { return }
        for engine in ["A", "B"] where !self.failing.contains(engine) {
            while let last = self.lastAnswer[engine], last.adding(.seconds(30 as Int64)) <= time {
                let answer = last.adding(.seconds(30 as Int64))
                let output = try self.adapters[engine]!.ingest(events: Array("[]".utf8), at: answer)
                self.apply(engine, output)
                self.lastAnswer[engine] = answer
            }
        }
    }

    /// Plays the whole recording, to its last step.
    mutating func playAll() throws {
        try self.play(through: self.recording.steps.last?.time ?? .distantPast)
    }

    private mutating func perform(_ index: Int) throws {
        let step = self.recording.steps[index]
        switch step.kind {
        case .snapshot(let name):
            try self.snapshot(step.engine, name, at: step.time)
        case .availableSnapshot, .action:
            break
        case .answer(let ids):
            if self.adapters[step.engine]!.needsSnapshot {
                // The source takes a snapshot before polling on: the next one recorded serves.
                guard
                    let later = self.recording.steps.indices.first(where: { candidate in
                        guard candidate > index, !self.used.contains(candidate), self.recording.steps[candidate].engine == step.engine,
                            case .availableSnapshot = self.recording.steps[candidate].kind
                        else { return false }
                        return true
                    }), case .availableSnapshot(let name) = self.recording.steps[later].kind
                else {
                    throw FixtureError("\(self.recording.name): \(step.engine) needs a snapshot at \(RFC3339.format(step.time)); none recorded later")
                }
                self.used.insert(later)
                try self.snapshot(step.engine, name, at: step.time)
            }
            let output = try self.adapters[step.engine]!.ingest(events: self.recording.body(step.engine, ids), at: step.time)
            self.apply(step.engine, output)
            self.lastAnswer[step.engine] = step.time
            self.failing.remove(step.engine)
        case .failed:
            self.failing.insert(step.engine)
            self.adapters[step.engine]!.pollFailed()
            self.monitor.connectionClosed(Self.connection[step.engine]!)
        }
    }

    private mutating func snapshot(_ engine: String, _ name: String, at time: Timestamp) throws {
        var snapshot = self.adapters[engine]!.makeSnapshot()
        while let request = snapshot.nextRequest {
            try snapshot.record(request, body: self.recording.answer(engine, snapshot: name, request))
        }
        self.snapshotsTaken.append("\(engine) \(name)")
        self.lastAnswer[engine] = time
        let output = self.adapters[engine]!.ingest(snapshot: snapshot, at: time)
        self.apply(engine, output)
    }

    private mutating func apply(_ engine: String, _ output: SyncthingOutput) {
        for event in output.events {
            self.monitor.apply(event, at: event.time!, connection: Self.connection[engine]!)
        }
        self.produced[engine]!.append(contentsOf: output.events)
        self.notices[engine]!.append(contentsOf: output.notices)
    }

    /// The verdict on `engine`/`folder` at `time`.
    func evaluation(_ engine: String, _ folder: String = "shared", at time: Timestamp) -> Evaluation? {
        self.monitor.evaluate(Self.key(engine, folder), at: time)
    }

    func pair(_ engine: String, _ folder: String = "shared") -> PairState? {
        self.monitor.pairs[Self.key(engine, folder)]
    }
}

/// `HH:MM:SS[.ffffff]` on the day the recordings were made (2026-11-24, UTC).
func recorded(_ clock: String) -> Timestamp {
    guard let time = RFC3339.parse("2026-11-24T\(clock)Z") else { preconditionFailure("bad time \(clock)") }
    return time
}
