/// Runs a recorded stream through the state model offline (`syncmon replay`, docs/operations.md#commands).
///
/// The clock is the latest event time seen and never goes backwards; an event without a time
/// happens at the current clock (docs/protocol.md#time). Events before the first timed one wait until a time
/// is known, so that a stream's untimed preamble does not happen in 1970. Feeding is
/// chunk-by-chunk, so a file of any size replays in constant memory.
public struct ReplaySession: Sendable {
    public internal(set) var monitor: Monitor
    let decoder: EventDecoder
    private var framer: LineFramer
    /// The replay clock: the latest event time seen.
    public internal(set) var clock: Timestamp?
    /// Untimed events seen before any time was known.
    var waiting: [Event] = []
    /// Lines read, blank ones included.
    public internal(set) var lines: UInt64 = 0
    /// The first `keptRejections` rejected lines, in order (the rest are only counted).
    public internal(set) var rejectedLines: [RejectedLine] = []
    let keptRejections: Int

    /// - Parameter keptRejections: how many rejected lines to keep with their number and reason
    ///   (`syncmon replay` names the first few, all of them with `--verbose`); memory stays
    ///   constant for any stream while this is bounded.
    public init(configuration: MonitorConfiguration = MonitorConfiguration(), maximumLineLength: Int = 65_536, keptRejections: Int = 0) {
        self.monitor = Monitor(configuration: configuration)
        self.keptRejections = keptRejections
        self.decoder = EventDecoder(maximumLineLength: maximumLineLength)
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    /// Feeds the next chunk of the stream.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        var framer = self.framer
        framer.feed(chunk) { self.handle($0) }
        self.framer = framer
    }

    /// Ends the stream. `fallbackTime` is the clock for a stream that carried no time at all.
    public mutating func finish(fallbackTime: Timestamp) {
        var framer = self.framer
        framer.finish { self.handle($0) }
        self.framer = framer
        if self.clock == nil, !self.waiting.isEmpty { self.release(at: fallbackTime) }
    }

    /// The time status is evaluated at: the clock advanced by `advance`.
    public func now(advancedBy advance: TimeSpan, fallbackTime: Timestamp) -> Timestamp {
        (self.clock ?? fallbackTime).adding(advance)
    }

    private mutating func handle(_ line: LineFramer.Line) {
        self.lines += 1
        switch line {
        case .tooLarge:
            self.monitor.count(Rejection(.tooLarge))
            self.keep(Rejection(.tooLarge), excerpt: "")
        case .line(let bytes):
            var event = Event(engine: InlineName(), payload: .heartbeat)
            switch self.decoder.decode(bytes, into: &event) {
            case .blank: break
            case .rejected(let rejection):
                self.monitor.count(rejection)
                if self.rejectedLines.count < self.keptRejections { self.keep(rejection, excerpt: RejectedLine.excerpt(of: bytes)) }
            case .event: self.apply(event)
            }
        }
    }

    private mutating func keep(_ rejection: Rejection, excerpt: String) {
        guard self.rejectedLines.count < self.keptRejections else { return }
        self.rejectedLines.append(RejectedLine(number: self.lines, rejection: rejection, excerpt: excerpt))
    }

    private mutating func apply(_ event: Event) {
        guard let time = event.statedTime else {
            guard let clock = self.clock else {
                self.waiting.append(event)
                return
            }
            self.applyCounting(event, at: clock)
            return
        }
        if self.clock == nil { self.release(at: time) }
        let clock = max(self.clock ?? time, time)
        self.clock = clock
        self.applyCounting(event, at: time)
    }

    /// Applies, keeping a rejection by the state model (the pair limit) like a decoder's.
    private mutating func applyCounting(_ event: Event, at time: Timestamp) {
        if case .rejected(let rejection) = self.monitor.apply(event, at: time) { self.keep(rejection, excerpt: "") }
    }

    /// Applies the events that waited for a time.
    private mutating func release(at time: Timestamp) {
        self.clock = time
        for event in self.waiting { self.monitor.apply(event, at: time) }
        self.waiting.removeAll()
    }
}
