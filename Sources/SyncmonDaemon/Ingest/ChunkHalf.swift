import SyncmonCore

/// The second half of a large push chunk, framed and decoded on another core while the
/// connection's event loop does the first (``EventIngest/feed(_:)``).
///
/// `@unchecked Sendable`: one `EventIngest` owns it, hands it to one helper task at a time and
/// waits for that task before touching it again, so it is never used from two threads at once.
final class ChunkHalf: @unchecked Sendable {
    /// Starts at a line's first byte: a fresh framer frames it as a sequential read would.
    var framer: LineFramer
    var batch: IngestBatch
    /// The bytes to decode; valid only while the owner waits.
    var bytes = UnsafeRawBufferPointer(start: nil, count: 0)

    init(maximumLineLength: Int) {
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
        self.batch = IngestBatch(maximumLineLength: maximumLineLength)
    }

    /// Frames and decodes ``bytes`` into ``batch``.
    func decode() {
        self.framer.feed(self.bytes) { self.batch.add($0) }
    }
}
