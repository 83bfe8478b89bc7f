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

    /// A recording, and whether its engines are all where the peek looks (else the replay must
    /// notice and fall back to one thread).
    struct Recording: Sendable {
        var name: String
        var text: String
        var peekable = true
    }

    static let recordings: [Recording] = [
        Recording(name: "plain", text: Self.recording { _ in "" }),
        Recording(
            name: "untimed preamble", text: Self.line("early", "willFetchChanges") + Self.line("engine-3", "heartbeat") + Self.recording { _ in "" }),
        Recording(name: "no time at all", text: Self.untimed(engines: 5, every: 0)),
        Recording(name: "rejections, blanks, duplicates, forgets", text: Self.recording(Self.troubles) + #"{"v":1,"engine":"last","type":"heartbeat"}"#),
        // Other writers' key orders and spacing: the engine is searched for, not found at once.
        Recording(name: "engine key elsewhere", text: Self.recording(Self.reordered)),
        // A nested object names another engine first: the peek is wrong, the decoder right.
        Recording(name: "nested engine key", text: Self.recording(Self.nested), peekable: false),
        // The last of a repeated key wins.
        Recording(name: "repeated engine key", text: Self.recording(Self.repeated), peekable: false),
        // Only a few events carry a time: most take the clock from other engines' lines.
        Recording(name: "mostly untimed", text: Self.untimed(engines: 7, every: 50)),
    ]

    /// Engines alternating sends; with `every` above 0, one line in `every` carries a time.
    static func untimed(engines: Int, every: Int) -> String {
        (0..<300).map { index in
            let time: Int64? = every > 0 && index % every == every / 2 ? Int64(index) : nil
            return Self.line("engine-\(index % engines)", index % 2 == 0 ? "willSendChanges" : "didSendChanges", time: time)
        }.joined()
    }

    static func troubles(_ index: Int) -> String {
        switch index % 29 {
        case 5: "not json\n"
        case 9: "\n"
        case 11: Self.line("engine-\(index % 13)", "heartbeat", time: 50, seq: 0)
        case 17: Self.line("engine-\(index % 13)", "forget")
        case 23: #"{"v":2,"engine":"x","type":"heartbeat"}"# + "\n"
        default: ""
        }
    }

    static func reordered(_ index: Int) -> String {
        index % 3 == 0 ? #"{"type":"heartbeat", "engine" : "engine-\#(index % 13)","v":1,"seq":\#(1000 + index)}"# + "\n" : ""
    }

    static func nested(_ index: Int) -> String {
        index == 200 ? #"{"v":1,"type":"heartbeat","x":{"engine":"elsewhere"},"engine":"engine-4","time":"2026-01-01T00:00:00Z"}"# + "\n" : ""
    }

    static func repeated(_ index: Int) -> String {
        index == 100 ? #"{"v":1,"engine":"engine-1","engine":"engine-2","type":"willSendChanges"}"# + "\n" : ""
    }

    static func sequential(_ text: String) -> ReplaySession {
        var session = ReplaySession(configuration: MonitorConfiguration(maximumPairs: .max), keptRejections: 3)
        Array(text.utf8).withUnsafeBytes { session.feed($0) }
        session.finish(fallbackTime: at(9_000))
        return session
    }

    /// The session, and the number of threads it was replayed on.
    static func parallel(_ text: String, workers: Int, blockSize: Int = ReplaySession.blockSize) -> (ReplaySession, Int) {
        var session = ReplaySession(configuration: MonitorConfiguration(maximumPairs: .max), keptRejections: 3)
        let threads = Array(text.utf8).withUnsafeBytes { bytes in
            session.feedAll(bytes, workers: workers, parallelFrom: 0, blockSize: blockSize) { count, body in
                for worker in 0..<count { body(worker) }
            }
        }
        session.finish(fallbackTime: at(9_000))
        return (session, threads)
    }

    /// The status as the table shows it, and every row's full value (the JSON writer is the
    /// daemon's; the CLI tests compare `syncmon replay --json` end to end).
    static func document(_ session: ReplaySession) -> [String] {
        let now = session.now(advancedBy: span(600), fallbackTime: at(9_000))
        let rows = session.monitor.rows(at: now)
        return [StatusTable.render(rows: rows, now: now)] + rows.map { String(describing: $0) }
            + session.monitor.pairs.sorted { $0.key < $1.key }.map { String(describing: $0.value) }
    }

    @Test("same status, clock, counts and rejections as one thread", arguments: Self.recordings.indices, [2, 3, 5])
    func sameAsSequential(recording: Int, workers: Int) {
        Self.expectSameAsSequential(recording: recording, workers: workers, blockSize: ReplaySession.blockSize)
    }

    /// Blocks of one line, of a few lines, and ending inside a line: the framing of each block
    /// is handed to the shards before the next is framed, and nothing may depend on where the
    /// blocks end.
    @Test("framed in small blocks, the same as one thread", arguments: Self.recordings.indices, [1, 997, 4_096])
    func sameInSmallBlocks(recording: Int, blockSize: Int) {
        Self.expectSameAsSequential(recording: recording, workers: 3, blockSize: blockSize)
    }

    static func expectSameAsSequential(recording: Int, workers: Int, blockSize: Int) {
        let text = Self.recordings[recording].text
        let expected = Self.sequential(text)
        let (actual, threads) = Self.parallel(text, workers: workers, blockSize: blockSize)
        #expect(threads == (Self.recordings[recording].peekable ? workers : 1))
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

    @Test("a recording under the threshold, or one worker, is replayed on one thread")
    func smallOrSingle() {
        let text = Self.recordings[0].text
        for (workers, threshold) in [(2, text.utf8.count + 1), (1, 0)] {
            var session = ReplaySession(configuration: MonitorConfiguration(maximumPairs: .max))
            let threads = Array(text.utf8).withUnsafeBytes { bytes in
                session.feedAll(bytes, workers: workers, parallelFrom: threshold) { count, body in
                    for worker in 0..<count { body(worker) }
                }
            }
            #expect(threads == 1)
            #expect(session.lines == 400)
        }
    }
}
