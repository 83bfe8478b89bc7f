import SyncmonContract
import SyncmonCore
import SyncmonHost

/// The one way events enter the state model.
///
/// Every transport hands what it receives to one of these: the push socket's connections,
/// `unix:`/`http://`/`file:` sources (NDJSON bytes or SSE documents), and adapters, which
/// translate a foreign tool's own output into events and hand those over decoded. Lines are
/// framed with the configured line limit and decoded into an `IngestBatch` outside the store's
/// lock; a batch is applied in one go, and its changes and rejections are reported.
///
/// Used from one context at a time (a channel's event loop, or a source's task).
final class EventIngest: SourceIngest {
    private let store: MonitorStore
    private let reporter: EventReporter
    private let transport: Transport
    /// What the events' arrival is timed with; also the time a push connection closes at.
    let clock: any ServiceClock
    /// The push connection the events came on, which engines that start on it are tied to;
    /// an adapter may name a connection of its own to tie the pairs it reports the same way.
    private let connection: UInt64?
    /// The push connection's process, once known: checked against the engines' policies.
    var peer: PeerCredentials?
    let maximumLineLength: Int
    // Unchecked: a class's stored properties are otherwise checked for exclusive access at run
    // time, on every line `feed` frames and decodes (about 3 % of push ingest). This object
    // is used from one context at a time, and nothing here calls back into it while it writes.
    @exclusivity(unchecked) private var framer: LineFramer
    @exclusivity(unchecked) private var batch: IngestBatch
    /// Whether large reads are split with ``DecodeHelper`` (a push connection's).
    private let splitsLargeReads: Bool
    /// The second half of the split reads, once there was one.
    private var split: SplitBatch?
    /// Reads split so far (tests).
    private(set) var readsSplit = 0
    /// Non-blank lines applied since the last `takeDelivered()`.
    private var delivered = 0
    /// Non-blank lines (or adapter events) applied in all.
    private(set) var total = 0
    /// The highest `seq` among the events applied so far.
    private(set) var highestSequence: Int64?

    init(
        store: MonitorStore,
        reporter: EventReporter,
        transport: Transport,
        clock: any ServiceClock,
        connection: UInt64? = nil,
        maximumLineLength: Int,
        highestSequence: Int64? = nil,
        splitsLargeReads: Bool = false
    ) {
        self.store = store
        self.reporter = reporter
        self.transport = transport
        self.clock = clock
        self.connection = connection
        self.maximumLineLength = maximumLineLength
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
        self.batch = IngestBatch(maximumLineLength: maximumLineLength)
        self.highestSequence = highestSequence
        self.splitsLargeReads = splitsLargeReads
    }

    /// Frames a chunk of NDJSON and applies the lines it completes.
    ///
    /// A push connection's large read is decoded on two cores: the second half's whole lines
    /// on ``DecodeHelper``'s thread while this one decodes the first half. The events are
    /// applied here either way, the first half's then the second's, in the order of the lines.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        if self.splitsLargeReads, bytes.count >= DecodeHelper.minimumSplitRead, let parts = ReadParts(bytes) {
            self.feed(parts)
        } else {
            self.framer.feed(bytes) { self.batch.add($0) }
            self.flush()
        }
    }

    /// Decodes and applies a read's head here while the helper decodes its middle (or decodes
    /// the middle here too, when the helper does not take it), then applies the middle and
    /// keeps the tail for the next read.
    private func feed(_ parts: ReadParts) {
        let split = self.split ?? SplitBatch(maximumLineLength: self.maximumLineLength)
        self.split = split
        self.readsSplit += 1
        let helper = DecodeHelper.shared
        let offered = helper.offer(parts.middle, into: split)
        // The head ends at a line end, so the framer holds nothing after it, and the middle's
        // lines are exactly those a framer would hand out.
        self.framer.feed(parts.head) { self.batch.add($0) }
        self.apply(&self.batch, asOneState: false)
        if !offered || !helper.collect() { split.decode(parts.middle) }
        self.apply(&split.batch, asOneState: false)
        self.framer.feed(parts.tail) { self.batch.add($0) }
    }

    /// The stream ended: a last line without `\n` is still read (docs/protocol.md, "Framing").
    func finish() {
        self.framer.finish { self.batch.add($0) }
        self.flush()
    }

    /// Forgets a partial line (the stream restarted elsewhere, e.g. a truncated file).
    func discardPartialLine() {
        self.framer = LineFramer(maximumLineLength: self.maximumLineLength)
    }

    /// Adds one whole document (an SSE event's data); `flush()` applies it.
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

    /// Applies events an adapter made, in one go; `asOneState` when they are a snapshot of
    /// how things stand (`MonitorStore.apply(_:transport:connection:peer:asOneState:now:)`).
    func apply(_ events: [Event], asOneState: Bool) {
        for event in events { self.batch.add(event) }
        self.flush(asOneState: asOneState)
    }

    /// Applies what was added. (A split read's second half is applied within its read.)
    func flush(asOneState: Bool) {
        self.apply(&self.batch, asOneState: asOneState)
    }

    /// Applies a batch in one go and empties it.
    private func apply(_ batch: inout IngestBatch, asOneState: Bool) {
        guard !batch.isEmpty else { return }
        if let sequence = batch.highestSequence, sequence > (self.highestSequence ?? .min) { self.highestSequence = sequence }
        self.delivered += batch.lines
        self.total += batch.lines
        let now = self.clock.wallTime()
        let outcome = self.store.apply(batch, transport: self.transport, connection: self.connection, peer: self.peer, asOneState: asOneState, now: now)
        batch.removeAll()
        self.reporter.report(outcome.changes)
        for forgotten in outcome.forgotten { self.reporter.reportForgotten(forgotten.key, allDatabases: forgotten.allDatabases, count: forgotten.count) }
        // Forbidden lines get their own entry below, naming the peer and the engine.
        let rejections = outcome.forbiddenEngines.isEmpty ? outcome.rejections : outcome.rejections.filter { $0.reason != .forbidden }
        self.reporter.report(rejections: rejections, transport: self.transport, now: now)
        if let peer = self.peer, let engine = outcome.forbiddenEngines.first {
            self.reporter.reportForbidden(engine: engine, count: outcome.forbiddenEngines.count, peer: peer, now: now)
        }
    }

    /// Lines applied since the last call.
    func takeDelivered() -> Int {
        defer { self.delivered = 0 }
        return self.delivered
    }
}
