import SyncmonCore

/// Lines decoded outside the store's lock, applied under it in one go.
///
/// A connection frames and decodes a whole read's worth of lines on its own event loop, so the
/// lock is taken once per read, not once per event. The arrays keep their capacity between
/// reads: steady-state ingest allocates nothing.
///
/// Lines are decoded straight into the event storage, which keeps its elements between reads
/// (only the first `eventCount` are this batch's): an event is a few hundred bytes, and
/// decoding into a value and appending it copied each one two or three times.
package struct IngestBatch: Sendable {
    /// The event storage; the batch's events are the first ``eventCount``.
    private var storage: [Event] = []
    /// How many events the batch holds.
    package private(set) var eventCount = 0
    package private(set) var rejections: [Rejection] = []
    /// Non-blank lines seen, valid or not.
    package private(set) var lines = 0
    /// The highest `seq` among the events, kept as they are added: walking the events again
    /// would copy each one out of the array.
    package private(set) var highestSequence: Int64?
    private var decoder: EventDecoder

    package init(maximumLineLength: Int = 65_536) {
        self.decoder = EventDecoder(maximumLineLength: maximumLineLength)
        self.storage.reserveCapacity(256)
    }

    /// Calls `body` with the batch's events, read in place.
    package func withEvents<Result>(_ body: (UnsafeBufferPointer<Event>) throws -> Result) rethrows -> Result {
        try self.storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<self.eventCount])) }
    }

    /// The batch's events, copied (tests).
    package var events: [Event] { Array(self.storage[..<self.eventCount]) }

    package var isEmpty: Bool { self.lines == 0 }

    /// Decodes one framed line into the batch.
    package mutating func add(_ line: LineFramer.Line) {
        switch line {
        case .tooLarge:
            self.lines += 1
            self.rejections.append(Rejection(.tooLarge))
        case .line(let bytes):
            if self.eventCount == self.storage.count { self.storage.append(Event(engine: InlineName(), payload: .heartbeat)) }
            switch self.decoder.decode(bytes, into: &self.storage[self.eventCount]) {
            case .blank:
                break
            case .event:
                self.lines += 1
                self.note(self.storage[self.eventCount].sequence)
                self.eventCount += 1
            case .rejected(let rejection):
                self.lines += 1
                self.rejections.append(rejection)
            }
        }
    }

    /// Decodes whole lines, each ending in `\n`, framed by the rule ``LineFramer`` frames by.
    package mutating func addWholeLines(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while let end = LineFramer.lineEnd(in: bytes, from: start) {
            self.add(LineFramer.line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), maximumLineLength: self.decoder.maximumLineLength))
            start = end + 1
        }
    }

    /// Adds an event an adapter decoded from a foreign tool's output.
    package mutating func add(_ event: Event) {
        self.lines += 1
        self.note(event.sequence)
        if self.eventCount == self.storage.count {
            self.storage.append(event)
        } else {
            self.storage[self.eventCount] = event
        }
        self.eventCount += 1
    }

    /// Keeps `sequence` if it is the highest so far.
    private mutating func note(_ sequence: Int64?) {
        if let sequence, sequence > (self.highestSequence ?? .min) { self.highestSequence = sequence }
    }

    /// Empties the batch, keeping its capacity and its event storage (overwritten by the next lines).
    package mutating func removeAll() {
        self.eventCount = 0
        self.rejections.removeAll(keepingCapacity: true)
        self.lines = 0
        self.highestSequence = nil
    }
}
