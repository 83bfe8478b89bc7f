import SyncmonCore
import Testing

/// An `Event` is copied at every hand-off of the per-event path (decode, batch, apply), and a
/// `PairState` is stored inline in the monitor's dictionary: their sizes are what those copies
/// cost (docs/performance.md). Error codes are stored compactly for that reason. An event keeps
/// its type and stated time beside the payload (9 bytes more) so that the per-event checks
/// never match the payload, which copies it.
@Suite("Event layout")
struct EventLayoutTests {
    @Test(
        "the per-event values stay small",
        arguments: [
            ("Event", MemoryLayout<Event>.size, 400),
            ("EventPayload", MemoryLayout<EventPayload>.size, 208),
            ("SyncError", MemoryLayout<SyncError>.size, 56),
            ("ErrorCode", MemoryLayout<ErrorCode>.size, 17),
            // A tracked pair's memory is mostly its state (the optional times packed, OptionalWords).
            ("PhaseTracker", MemoryLayout<PhaseTracker>.stride, 352),
            // 8 bytes of it the time the pair was last judged (late events, docs/protocol.md#time).
            ("PairState", MemoryLayout<PairState>.stride, 1416),
        ])
    func size(_ name: String, _ size: Int, _ bound: Int) {
        #expect(size <= bound, "\(name) is \(size) bytes")
    }
}
