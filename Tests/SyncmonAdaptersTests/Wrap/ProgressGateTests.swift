import SyncmonAdapters
import SyncmonCore
import Testing

/// When a wrapped run shows life: the process tree's I/O, read every second, is the clock while
/// it can be read and has been active; otherwise the tool's counters are.
@Suite("Progress gate")
struct ProgressGateTests {
    /// One second: what the tool's counters grew by, what the tree moved, whether it was readable.
    struct Second {
        var counters: ProgressDelta?
        var io: Int64?
        var readable = true
        /// The batch expected at the second's end.
        var batch: ProgressDelta?
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var seconds: [Second]
        var drained: ProgressDelta?
        var testDescription: String { self.name }
    }

    static let files2 = ProgressDelta(bytes: 5_000_000, files: 2)

    static let cases: [Case] = [
        Case(
            name: "no I/O to read: the counters are the clock",
            seconds: [
                Second(counters: files2, readable: false, batch: files2),
                Second(readable: false, batch: nil),
                Second(counters: ProgressDelta(checks: 1), readable: false, batch: ProgressDelta(checks: 1)),
            ], drained: nil),
        Case(
            name: "I/O every second: one batch a second, with the counters' files",
            seconds: [
                Second(io: 100_000, batch: ProgressDelta(bytes: 100_000)),
                Second(counters: files2, io: 200_000, batch: ProgressDelta(bytes: 5_200_000, files: 2)),
                Second(io: 300_000, batch: ProgressDelta(bytes: 300_000)),
            ], drained: nil),
        Case(
            name: "a stalled transfer: a late stats line after the I/O stopped is not life; its files wait",
            seconds: [
                Second(io: 100_000, batch: ProgressDelta(bytes: 100_000)),
                Second(batch: nil),
                Second(batch: nil),
                Second(counters: files2, batch: nil),
                Second(batch: nil),
            ], drained: files2),
        Case(
            name: "I/O quiet for longer than the window (a server-side copy): the counters are the clock again",
            seconds: [Second(io: 100_000, batch: ProgressDelta(bytes: 100_000))] + Array(repeating: Second(batch: nil), count: 15)
                + [Second(counters: files2, batch: files2)],
            drained: nil),
        Case(
            name: "I/O that could never be read does not vouch",
            seconds: [
                Second(counters: files2, readable: true, batch: files2)
            ], drained: nil),
    ]

    @Test("batches", arguments: cases)
    func batches(_ testCase: Case) {
        var gate = ProgressGate()
        for (index, second) in testCase.seconds.enumerated() {
            if let counters = second.counters { gate.add(counters) }
            let batch = gate.tick(ioMoved: second.io, ioReadable: second.readable, at: Timestamp(seconds: Int64(index + 1)))
            #expect(batch == second.batch, "second \(index + 1)")
        }
        #expect(gate.drain() == testCase.drained)
        #expect(gate.drain() == nil)
    }
}
