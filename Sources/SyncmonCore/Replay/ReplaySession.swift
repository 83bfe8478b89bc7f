/// Runs a recorded stream through the state model offline (`syncmon replay`, docs/operations.md#commands).
///
/// The clock is the latest event time seen and never goes backwards; an event without a time
/// happens at the current clock (docs/protocol.md#time). Events before the first timed one wait until a time
/// is known, so that a stream's untimed preamble does not happen in 1970. Feeding is
/// chunk-by-chunk, so a file of any size replays in constant memory.
public struct ReplaySession: Sendable {
    public internal(set) var monitor: Monitor
    var decoder: EventDecoder
    var framer: LineFramer
    /// The replay clock: the latest event time seen.
    public internal(set) var clock: Timestamp?
    /// Untimed events seen before any time was known.
    var waiting: [Event] = []
    /// Lines read, blank ones included.
    public internal(set) var lines: UInt64 = 0
    /// The first `keptRejections` rejected lines, in order (the rest are only counted).
    public internal(set) var rejectedLines: [RejectedLine] = []
    let keptRejections: Int
    /// The event each line is decoded into: one value reused, where building a new one for
    /// every line wrote a few hundred bytes.
    private var event = Event(engine: InlineName(), payload: .heartbeat)
    /// Whether the pairs are looked at as the daemon looks at them (`syncmon replay --changes`):
    /// around every event, and whenever a verdict can change with no event (a threshold
    /// crossed), so that a verdict that held for a while in the middle of the stream is seen.
    /// Without, replay evaluates once, at the end.
    public let looks: Bool
    /// The changes of health the looks found, in time order.
    public internal(set) var healthChanges: [ReplayHealthChange] = []
    /// The time of the latest look.
    private var lastLook: Timestamp? = nil

    /// - Parameter keptRejections: how many rejected lines to keep with their number and reason
    ///   (`syncmon replay` names the first few, all of them with `--verbose`); memory stays
    ///   constant for any stream while this is bounded.
    public init(
        configuration: MonitorConfiguration = MonitorConfiguration(), maximumLineLength: Int = 65_536, keptRejections: Int = 0, looks: Bool = false
    ) {
        self.monitor = Monitor(configuration: configuration)
        self.keptRejections = keptRejections
        self.looks = looks
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
        case .tooLarge: self.reject(Rejection(.tooLarge), number: self.lines, line: nil)
        case .line(let bytes): self.take(self.decode(bytes), of: bytes, number: self.lines)
        }
    }

    /// Decodes a line into ``event``, where ``take(_:of:number:)`` finds it.
    mutating func decode(_ bytes: UnsafeRawBufferPointer) -> DecodeOutcome {
        self.decoder.decode(bytes, into: &self.event)
    }

    /// Whether the event just decoded names the engine `name`.
    ///
    /// Inlined: called on a shard's session as a plain method, it was handed a copy of the
    /// whole session (600 bytes) every line.
    @inline(__always)
    func decodedEngine(is name: UnsafeRawBufferPointer) -> Bool {
        self.event.engine.holds(name)
    }

    /// Whether the event just decoded happens at the replay clock, or waits for a time: its own
    /// time is not enough to apply it as a sequential replay would.
    var decodedNeedsClock: Bool { self.event.statedTime == nil || !self.waiting.isEmpty }

    /// Takes the decoded outcome of line `number` (its event is in ``event``).
    mutating func take(_ outcome: DecodeOutcome, of bytes: UnsafeRawBufferPointer, number: UInt64) {
        switch outcome {
        case .blank: break
        case .rejected(let rejection): self.reject(rejection, number: number, line: bytes)
        case .event: self.applyDecoded(number: number)
        }
    }

    /// Counts a rejected line, and keeps it while fewer than `keptRejections` are kept.
    mutating func reject(_ rejection: Rejection, number: UInt64, line: UnsafeRawBufferPointer?) {
        self.monitor.count(rejection)
        // Only the lines kept are read again: the type asked for, to suggest the type meant.
        self.keep(
            rejection, number: number, excerpt: line.map(RejectedLine.excerpt) ?? "",
            typeName: rejection.reason == .unknownType ? line.flatMap(EventType.typeName(of:)) : nil)
    }

    private mutating func keep(_ rejection: Rejection, number: UInt64, excerpt: @autoclosure () -> String, typeName: @autoclosure () -> String? = nil) {
        guard self.rejectedLines.count < self.keptRejections else { return }
        self.rejectedLines.append(RejectedLine(number: number, rejection: rejection, excerpt: excerpt(), typeName: typeName()))
    }

    /// Applies ``event`` at its own time, else at the clock, else keeps it until a time is known.
    private mutating func applyDecoded(number: UInt64) {
        let time: Timestamp
        if let stated = self.event.statedTime {
            self.advanceClock(to: stated)
            time = stated
        } else if let clock = self.clock {
            time = clock
        } else {
            self.waiting.append(self.event)
            return
        }
        // A rejection by the state model (the pair limit) is kept like a decoder's.
        var changes: [StatusChange] = []
        guard self.looks else {
            // Not looked at: replay evaluates once, at the end.
            if case .rejected(let rejection) = self.monitor.apply(stored: &self.event, at: time, changes: &changes) {
                self.keep(rejection, number: number, excerpt: "")
            }
            return
        }
        self.look(until: time)
        if case .rejected(let rejection) = self.monitor.apply(stored: &self.event, at: time, lookingAt: time, changes: &changes) {
            self.keep(rejection, number: number, excerpt: "")
        }
        self.record(changes, at: time)
    }

    /// The daemon's looks between events, up to `time`: each time a verdict can change with no
    /// event arriving (``Monitor/nextLook``), as its timer would wake it.
    public mutating func look(until time: Timestamp) {
        guard self.looks else { return }
        var last = self.lastLook ?? time
        while self.monitor.nextLook <= time {
            // `nextLook` is the distant past when a pair wants a look at once: now, then.
            let at = max(self.monitor.nextLook, last)
            self.record(self.monitor.changes(at: at), at: at)
            last = at
            if self.monitor.nextLook <= at { break }
        }
        self.lastLook = max(last, time)
    }

    private mutating func record(_ changes: [StatusChange], at time: Timestamp) {
        for change in changes where change.isHealthChange {
            self.healthChanges.append(ReplayHealthChange(time: time, change: change))
        }
    }

    /// A line stated `time`: the clock moves to it if it is later, and the events that waited
    /// for a time happen at the first one.
    mutating func advanceClock(to time: Timestamp) {
        if self.clock == nil { self.release(at: time) }
        self.clock = max(self.clock ?? time, time)
    }

    /// Applies the events that waited for a time.
    mutating func release(at time: Timestamp) {
        self.clock = time
        for event in self.waiting { self.monitor.apply(event, at: time) }
        self.waiting.removeAll()
    }
}

/// A change of a pair's health that a replay with looks found (`syncmon replay --changes`).
public struct ReplayHealthChange: Sendable {
    public var time: Timestamp
    public var change: StatusChange
}
