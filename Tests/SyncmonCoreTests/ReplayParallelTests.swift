import SyncmonCore
import Testing

/// A recording replayed on several workers (sharded by engine, merged) gives exactly what the
/// sequential replay gives: status, clock, line count, rejections and their line numbers.
@Suite("ReplaySession, parallel")
struct ReplayParallelTests {
    static func line(_ engine: String, _ type: String, time: Int64? = nil, seq: Int? = nil, _ extra: String = "") -> String {
        let timeKey = time.map { #","time":"\#(RFC3339.format(at($0)))""# } ?? ""
        let seqKey = seq.map { #","seq":\#($0)"# } ?? ""
        return #"{"v":1,"engine":"\#(engine)","type":"\#(type)""# + timeKey + seqKey + extra + "}\n"
    }

    /// Many engines cycling, with whatever `extra` lines are mixed in every few lines.
    static func recording(_ extra: (Int) -> String) -> String {
        var text = ""
        for index in 0..<400 {
            let engine = "engine-\(index % 13)"
            let types = ["willFetchChanges", "didFetchChanges", "willSendChanges", "didSendChanges", "heartbeat"]
            text += Self.line(engine, types[index % types.count], time: index % 7 == 3 ? nil : Int64(100 + index), seq: index / 13)
            text += extra(index)
        }
        return text
    }

    static let recordings: [(name: String, text: String)] = [
        ("plain", Self.recording { _ in "" }),
        ("untimed preamble", Self.line("early", "willFetchChanges") + Self.line("engine-3", "heartbeat") + Self.recording { _ in "" }),
        ("no time at all", (0..<300).map { Self.line("engine-\($0 % 5)", $0 % 2 == 0 ? "willSendChanges" : "didSendChanges") }.joined()),
        (
            "rejections, blanks, duplicates, forgets",
            Self.recording { index in
                switch index % 29 {
                case 5: "not json\n"
                case 9: "\n"
                case 11: Self.line("engine-\(index % 13)", "heartbeat", time: 50, seq: 0)
                case 17: Self.line("engine-\(index % 13)", "forget")
                case 23: #"{"v":2,"engine":"x","type":"heartbeat"}"# + "\n"
                default: ""
                }
            } + "{\"v\":1,\"engine\":\"last\",\"type\":\"heartbeat\"}"
        ),
    ]

    static func sequential(_ text: String) -> ReplaySession {
        var session = ReplaySession(configuration: MonitorConfiguration(maximumPairs: .max), keptRejections: 3)
        Array(text.utf8).withUnsafeBytes { session.feed($0) }
        session.finish(fallbackTime: at(9_000))
        return session
    }

    static func parallel(_ text: String, workers: Int, stretchSize: Int) -> ReplaySession {
        var session = ReplaySession(configuration: MonitorConfiguration(maximumPairs: .max), keptRejections: 3)
        Array(text.utf8).withUnsafeBytes { bytes in
            session.feedAll(bytes, workers: workers, stretchSize: stretchSize) { count, body in
                for worker in 0..<count { body(worker) }
            }
        }
        session.finish(fallbackTime: at(9_000))
        return session
    }

    /// The status as the table shows it, and every row's full value (the JSON writer is the
    /// daemon's; the CLI tests compare `syncmon replay --json` end to end).
    static func document(_ session: ReplaySession) -> [String] {
        let now = session.now(advancedBy: span(600), fallbackTime: at(9_000))
        let rows = session.monitor.rows(at: now)
        return [StatusTable.render(rows: rows, now: now)] + rows.map { String(describing: $0) }
            + session.monitor.pairs.sorted { $0.key < $1.key }.map { String(describing: $0.value) }
    }

    @Test("same status, clock, counts and rejections as one thread", arguments: Self.recordings.indices, [(2, 97), (3, 500), (2, 4096)])
    func sameAsSequential(recording: Int, setup: (workers: Int, stretchSize: Int)) {
        let text = Self.recordings[recording].text
        let expected = Self.sequential(text)
        let actual = Self.parallel(text, workers: setup.workers, stretchSize: setup.stretchSize)
        #expect(Self.document(actual) == Self.document(expected))
        #expect(actual.clock == expected.clock)
        #expect(actual.lines == expected.lines)
        #expect(actual.monitor.accepted == expected.monitor.accepted)
        #expect(actual.monitor.duplicates == expected.monitor.duplicates)
        for reason in RejectionReason.allCases {
            #expect(actual.monitor.rejectedCount(reason) == expected.monitor.rejectedCount(reason))
        }
        #expect(actual.rejectedLines.map(\.description) == expected.rejectedLines.map(\.description))
    }
}
