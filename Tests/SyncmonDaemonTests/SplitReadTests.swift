import Logging
import SyncmonContractTesting
import SyncmonCore
import Testing

@testable import SyncmonDaemon

/// A push connection's large reads, decoded on two cores (`DecodeHelper`): the pairs, counts,
/// rejections and `seq` order come out exactly as when one core decodes every line, however
/// the stream is cut into reads.
@Suite("Large push reads split between two decoders")
struct SplitReadTests {
    /// The line limit of these streams: small, so that a too-large line fits in a test.
    static let lineLimit = 2_000

    /// 4,000 lines from twelve pairs, with what depends on order and on framing mixed in:
    /// repeated and out-of-order `seq`s (duplicates), malformed lines, unknown types, a `\r`
    /// before some `\n`s, blank lines, and lines over the limit.
    static let stream: [UInt8] = {
        var text = ""
        var sequence = [Int](repeating: 0, count: 12)
        let steps = ["willFetchChanges", "fetchedRecordZoneChanges", "didFetchChanges", "willSendChanges", "didSendChanges"]
        for index in 0..<4_000 {
            let pair = index % 12
            let engine = "engine-\(pair / 2)"
            let database = pair % 2 == 0 ? "private" : "shared"
            switch index % 211 {
            case 17: text += "{\"v\":1,\"engine\":\"\(engine)\",\"type\":\n"
            case 53: text += "{\"v\":1,\"engine\":\"\(engine)\",\"type\":\"noSuchType\"}\n"
            case 97: text += "\n\r\n"
            case 131: text += "{\"v\":1,\"engine\":\"\(engine)\",\"type\":\"heartbeat\",\"pad\":\"" + String(repeating: "x", count: 3_000) + "\"}\n"
            case 173:
                // The pair's last seq again: a duplicate only if the line before it was applied first.
                text += "{\"v\":1,\"engine\":\"\(engine)\",\"database\":\"\(database)\",\"seq\":\(sequence[pair] - 1),\"type\":\"heartbeat\"}\n"
            default:
                let type = steps[sequence[pair] % steps.count]
                let payload = type == "fetchedRecordZoneChanges" ? ",\"zone\":\"Notes\",\"modifications\":\(index % 7),\"deletions\":0" : ""
                let end = index % 29 == 0 ? "\r\n" : "\n"
                text += "{\"v\":1,\"engine\":\"\(engine)\",\"database\":\"\(database)\",\"seq\":\(sequence[pair]),\"type\":\"\(type)\"\(payload)}" + end
                sequence[pair] += 1
            }
        }
        return Array(text.utf8)
    }()

    /// What a store took in, in a form two runs can be compared by.
    struct Outcome: Equatable {
        var rows: String
        var accepted: UInt64
        var duplicates: UInt64
        var rejected: [UInt64]
        var total: Int
        var highestSequence: Int64?
    }

    /// Feeds `stream` to a push connection's ingest in reads of `readSize` bytes.
    static func ingest(readSize: Int, splitting: Bool) -> (outcome: Outcome, readsSplit: Int) {
        let store = MonitorStore(configuration: MonitorConfiguration())
        let ingest = EventIngest(
            store: store,
            reporter: EventReporter(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })),
            transport: .push,
            clock: ManualClock(now: at(100)),
            connection: 1,
            maximumLineLength: Self.lineLimit,
            splitsLargeReads: splitting
        )
        Self.stream.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let end = min(start + readSize, bytes.count)
                ingest.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
        }
        ingest.finish()
        let (monitor, received, _) = store.snapshot()
        let outcome = Outcome(
            rows: String(describing: monitor.rows(at: at(200))),
            accepted: monitor.accepted,
            duplicates: monitor.duplicates,
            rejected: RejectionReason.allCases.map { monitor.rejectedCount($0) } + received,
            total: ingest.total,
            highestSequence: ingest.highestSequence
        )
        return (outcome, ingest.readsSplit)
    }

    @Test(
        "split reads take in what one decoder does",
        arguments: [32 * 1024, 40_000, 65_536, 100_003, 262_144, Int.max]
    )
    func sameOutcome(readSize: Int) {
        let alone = Self.ingest(readSize: readSize, splitting: false)
        let split = Self.ingest(readSize: readSize, splitting: true)
        #expect(alone.readsSplit == 0)
        #expect(split.readsSplit > 0, "no read was split: the test would compare one path with itself")
        #expect(split.outcome == alone.outcome)
        // The stream exercises what it is meant to.
        #expect(alone.outcome.duplicates > 0)
        #expect(alone.outcome.rejected[RejectionReason.tooLarge.rawValue] > 0)
        #expect(alone.outcome.rejected[RejectionReason.malformed.rawValue] > 0)
    }

    @Test("reads under the threshold are not split")
    func smallReads() {
        let result = Self.ingest(readSize: DecodeHelper.minimumSplitRead - 1, splitting: true)
        #expect(result.readsSplit == 0)
    }

    @Test(
        "a read is cut at line ends: the head ends a line, the middle is whole lines, the tail starts one",
        arguments: [
            ("a\nbb\nccc\ndddd\neeeee\nf\ngg", "a\nbb\nccc\ndddd\n", "eeeee\nf\n", "gg"),
            ("a\nbb\nccc\ndddd\n", "a\nbb\nccc\n", "dddd\n", ""),
            ("0123456789\nx\ny\n", "0123456789\n", "x\ny\n", ""),
            ("a\nb\nc\nd\ne\nf\n", "a\nb\nc\nd\n", "e\nf\n", ""),
        ])
    func parts(read: String, head: String, middle: String, tail: String) throws {
        let bytes = Array(read.utf8)
        try bytes.withUnsafeBytes { buffer in
            let parts = try #require(ReadParts(buffer))
            #expect(String(decoding: parts.head, as: UTF8.self) == head)
            #expect(String(decoding: parts.middle, as: UTF8.self) == middle)
            #expect(String(decoding: parts.tail, as: UTF8.self) == tail)
        }
    }

    @Test(
        "a read without a line end after its middle but its last is not cut",
        arguments: ["abcdefghij\n", "a\nbb\nccc\ndddd\neeeee", "a\nbcdefghijklmnop", "no line end"])
    func uncut(read: String) {
        Array(read.utf8).withUnsafeBytes { #expect(ReadParts($0) == nil) }
    }

    @Test("the helper's thread decodes an offer it is left, and takes one offer at a time")
    func helperDecodes() {
        let lines = Array(String(repeating: "{\"v\":1,\"engine\":\"e\",\"type\":\"heartbeat\"}\n", count: 100).utf8)
        let batch = SplitBatch(maximumLineLength: 1_000)
        let other = SplitBatch(maximumLineLength: 1_000)
        lines.withUnsafeBytes { bytes in
            // One of its own: the shared one may hold another test's offer.
            let helper = DecodeHelper()
            #expect(helper.offer(bytes, into: batch))
            #expect(!helper.offer(bytes, into: other), "a second offer while one is out is refused")
            #expect(helper.collect(takingBack: false), "left to it, the helper decodes the lines")
            #expect(batch.batch.eventCount == 100)
            #expect(other.batch.isEmpty)
            // Taken back or decoded: the lines are decoded once either way.
            #expect(helper.offer(bytes, into: other))
            if !helper.collect() { other.decode(bytes) }
            #expect(other.batch.eventCount == 100)
        }
    }
}
