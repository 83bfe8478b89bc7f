import SyncmonCore

/// A source's lines into the state model, exactly as the push socket does it: `LineFramer` with
/// the configured line limit, decoded into an `IngestBatch` outside the lock, applied in one go
/// with `transport: .subscribe`, changes and rejections reported.
///
/// Used from one context at a time (a channel's event loop, or a file follower's task).
final class SourceIngest {
    private let store: MonitorStore
    private let reporter: EventReporter
    let maximumLineLength: Int
    private var framer: LineFramer
    private var batch: IngestBatch
    /// Non-blank lines applied since the last `takeDelivered()`.
    private var delivered = 0
    /// The highest `seq` among the events applied so far.
    private(set) var highestSequence: Int64?

    init(store: MonitorStore, reporter: EventReporter, maximumLineLength: Int, highestSequence: Int64? = nil) {
        self.store = store
        self.reporter = reporter
        self.maximumLineLength = maximumLineLength
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
        self.batch = IngestBatch(maximumLineLength: maximumLineLength)
        self.highestSequence = highestSequence
    }

    /// Frames a chunk of NDJSON and applies the lines it completes.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        self.framer.feed(bytes) { self.batch.add($0) }
        self.flush()
    }

    /// The stream ended: a last line without `\n` is still read (SPEC §9.1).
    func finish() {
        self.framer.finish { self.batch.add($0) }
        self.flush()
    }

    /// Forgets a partial line (the stream restarted elsewhere, e.g. a truncated file).
    func discardPartialLine() {
        self.framer = LineFramer(maximumLineLength: self.maximumLineLength)
    }

    /// Adds one whole document (an SSE event's data); `apply()` applies it.
    func add(document: [UInt8]) {
        if document.count > self.maximumLineLength + 1 {
            self.batch.add(.tooLarge)
        } else {
            document.withUnsafeBytes { self.batch.add(.line($0)) }
        }
    }

    /// Counts one over-long document.
    func addTooLarge() {
        self.batch.add(.tooLarge)
    }

    /// Applies what was added.
    func flush() {
        guard !self.batch.isEmpty else { return }
        for event in self.batch.events {
            if let sequence = event.sequence, sequence > (self.highestSequence ?? .min) { self.highestSequence = sequence }
        }
        self.delivered += self.batch.lines
        let now = WallClock.now()
        let outcome = self.store.apply(self.batch, transport: .subscribe, connection: nil, now: now)
        self.batch.removeAll()
        self.reporter.report(outcome.changes)
        self.reporter.report(rejections: outcome.rejections, transport: .subscribe, now: now)
    }

    /// Lines applied since the last call.
    func takeDelivered() -> Int {
        defer { self.delivered = 0 }
        return self.delivered
    }
}
