import SyncmonCore

/// Lines decoded outside the store's lock, applied under it in one go.
///
/// A connection frames and decodes a whole read's worth of lines on its own event loop, so the
/// lock is taken once per read, not once per event. The arrays keep their capacity between
/// reads: steady-state ingest allocates nothing.
public struct IngestBatch: Sendable {
    public private(set) var events: [Event] = []
    public private(set) var rejections: [Rejection] = []
    /// Non-blank lines seen, valid or not.
    public private(set) var lines = 0
    /// The highest `seq` among the events, kept as they are added: walking the events again
    /// would copy each one out of the array.
    public private(set) var highestSequence: Int64?
    private let decoder: EventDecoder

    public init(maximumLineLength: Int = 65_536) {
        self.decoder = EventDecoder(maximumLineLength: maximumLineLength)
        self.events.reserveCapacity(256)
    }

    public var isEmpty: Bool { self.lines == 0 }

    /// Decodes one framed line into the batch.
    public mutating func add(_ line: LineFramer.Line) {
        switch line {
        case .tooLarge:
            self.lines += 1
            self.rejections.append(Rejection(.tooLarge))
        case .line(let bytes):
            switch self.decoder.decode(bytes) {
            case .blank:
                break
            case .event(let event):
                self.lines += 1
                self.note(event.sequence)
                self.events.append(event)
            case .rejected(let rejection):
                self.lines += 1
                self.rejections.append(rejection)
            }
        }
    }

    /// Adds an event an adapter decoded from a foreign tool's output.
    public mutating func add(_ event: Event) {
        self.lines += 1
        self.note(event.sequence)
        self.events.append(event)
    }

    /// Keeps `sequence` if it is the highest so far.
    private mutating func note(_ sequence: Int64?) {
        if let sequence, sequence > (self.highestSequence ?? .min) { self.highestSequence = sequence }
    }

    /// Empties the batch, keeping its capacity.
    public mutating func removeAll() {
        self.events.removeAll(keepingCapacity: true)
        self.rejections.removeAll(keepingCapacity: true)
        self.lines = 0
        self.highestSequence = nil
    }
}
