import Logging
import SyncmonCore
import Testing

@testable import SyncmonDaemon

/// A large chunk is decoded in two halves on two cores (``EventIngest/feed(_:)``): every line
/// must still be applied once, in line order, and a line cut at the chunk's end must complete
/// with the next chunk, as with a chunk decoded whole.
@Suite("Ingest of large chunks")
struct EventIngestSplitTests {
    @Test("a chunk split across cores applies every line in order; a cut line completes in the next chunk", arguments: [1, 700, 5_000])
    func splitChunk(cycles: Int) throws {
        let store = MonitorStore(configuration: MonitorConfiguration())
        let ingest = EventIngest(
            store: store,
            reporter: EventReporter(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })),
            transport: .push,
            clock: ManualClock(now: at(0)),
            maximumLineLength: 65_536
        )
        // Sequence numbers only go up: a half applied before the other would drop the lower
        // ones as duplicates and count fewer cycles.
        var text = ""
        for cycle in 0..<cycles {
            text += #"{"v":1,"engine":"big","type":"willFetchChanges","seq":\#(2 * cycle)}"# + "\n"
            text += #"{"v":1,"engine":"big","type":"didFetchChanges","seq":\#(2 * cycle + 1)}"# + "\n"
        }
        let last = #"{"v":1,"engine":"big","type":"willFetchChanges","seq":\#(2 * cycles)}"# + "\n"
        let bytes = Array((text + last).utf8)
        let cut = bytes.count - 20
        bytes[..<cut].withUnsafeBytes { ingest.feed($0) }
        #expect(Self.runs(store) == UInt64(cycles))
        #expect(ingest.total == 2 * cycles)
        bytes[cut...].withUnsafeBytes { ingest.feed($0) }
        #expect(ingest.total == 2 * cycles + 1)
        #expect(ingest.highestSequence == Int64(2 * cycles))
        let (monitor, _, _) = store.snapshot()
        #expect(monitor.duplicates == 0)
        #expect(monitor.rejected.allSatisfy { $0 == 0 })
    }

    static func runs(_ store: MonitorStore) -> UInt64 {
        let (monitor, _, _) = store.snapshot()
        return monitor.pairs[PairKey(engine: InlineName("big")!, database: .private)]?.runs(of: .import).runs ?? 0
    }
}
