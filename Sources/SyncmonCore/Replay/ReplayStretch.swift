/// One stretch of a recording, framed and decoded on its own: a worker's share of a block in a
/// parallel replay (``ReplaySession/feedAll(_:workers:perform:)``).
///
/// A stretch starts at a line's first byte, so it frames to exactly the lines a sequential
/// read would. It keeps each event with the replay clock as far as this stretch alone knows
/// it (the latest stated time up to the event) and the shard that applies it; the clock of
/// the lines before the stretch is folded in when the events are applied.
struct ReplayStretch {
    /// The events in line order: the first ``eventCount``. The storage keeps its elements from
    /// block to block, and lines are decoded straight into it (an event is a few hundred
    /// bytes: decoding into a value and appending it copied each one two or three times).
    var events: [Event] = []
    /// How many of ``events`` are this stretch's.
    var eventCount = 0
    /// For each event, the latest stated time among this stretch's lines up to and including it.
    var clocks: [Timestamp?] = []
    /// For each event, the shard its engine belongs to.
    var shards: [UInt8] = []
    /// Lines framed, blank ones included.
    var lines: UInt64 = 0
    /// Lines the decoder rejected, by reason.
    var rejected = [UInt64](repeating: 0, count: RejectionReason.allCases.count)
    /// The first rejected lines, numbered within the stretch (from 1).
    var rejectedLines: [RejectedLine] = []
    /// The first and the latest stated time of the stretch.
    var firstTime: Timestamp?
    var latestTime: Timestamp?

    /// Empties the stretch, keeping its capacity.
    mutating func reset() {
        self.eventCount = 0
        self.clocks.removeAll(keepingCapacity: true)
        self.shards.removeAll(keepingCapacity: true)
        self.lines = 0
        for index in self.rejected.indices { self.rejected[index] = 0 }
        self.rejectedLines.removeAll()
        self.firstTime = nil
        self.latestTime = nil
    }

    /// Frames and decodes `bytes`, a whole number of lines (the last may lack its `\n`).
    mutating func decode(_ bytes: UnsafeRawBufferPointer, decoder: EventDecoder, keptRejections: Int, shardCount: Int) {
        self.reset()
        var framer = LineFramer(maximumLineLength: decoder.maximumLineLength)
        framer.feed(bytes) { self.handle($0, decoder: decoder, keptRejections: keptRejections, shardCount: shardCount) }
        framer.finish { self.handle($0, decoder: decoder, keptRejections: keptRejections, shardCount: shardCount) }
    }

    private mutating func handle(_ line: LineFramer.Line, decoder: EventDecoder, keptRejections: Int, shardCount: Int) {
        self.lines += 1
        switch line {
        case .tooLarge:
            self.reject(Rejection(.tooLarge), excerpt: "", keptRejections: keptRejections)
        case .line(let bytes):
            if self.eventCount == self.events.count { self.events.append(Event(engine: InlineName(), payload: .heartbeat)) }
            let index = self.eventCount
            // In place through the buffer: the array's subscript would copy the event out to
            // read its time and engine.
            let decoded = self.events.withUnsafeMutableBufferPointer { events -> (DecodeOutcome, Timestamp?, Int) in
                let outcome = decoder.decode(bytes, into: &events[index])
                guard outcome == .event else { return (outcome, nil, 0) }
                return (outcome, events[index].statedTime, ReplayShard.shard(of: events[index].engine, count: shardCount))
            }
            switch decoded.0 {
            case .blank: break
            case .rejected(let rejection):
                if self.rejectedLines.count < keptRejections {
                    self.reject(rejection, excerpt: RejectedLine.excerpt(of: bytes), keptRejections: keptRejections)
                } else {
                    self.rejected[rejection.reason.rawValue] += 1
                }
            case .event:
                if let time = decoded.1 {
                    if self.firstTime == nil { self.firstTime = time }
                    self.latestTime = max(self.latestTime ?? time, time)
                }
                self.clocks.append(self.latestTime)
                self.shards.append(UInt8(truncatingIfNeeded: decoded.2))
                self.eventCount += 1
            }
        }
    }

    private mutating func reject(_ rejection: Rejection, excerpt: String, keptRejections: Int) {
        self.rejected[rejection.reason.rawValue] += 1
        guard self.rejectedLines.count < keptRejections else { return }
        self.rejectedLines.append(RejectedLine(number: self.lines, rejection: rejection, excerpt: excerpt))
    }
}

/// The pairs of some engines, replayed apart from the others': pairs of different engines never
/// touch each other's state (a `forget` reaches one engine's pairs only), so a recording's
/// engines can be applied on several cores and the monitors merged.
struct ReplayShard {
    var monitor: Monitor
    /// Untimed events seen before any time was known, as ``ReplaySession`` keeps them.
    var waiting: [Event] = []

    /// The shard of `engine` among `count`: FNV-1a of its bytes, a few nanoseconds where
    /// `hashValue` (SipHash, seeded) cost 3% of a replay.
    static func shard(of engine: InlineName, count: Int) -> Int {
        guard count > 1 else { return 0 }
        let hash = engine.withBytes { bytes in
            bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
        }
        return Int(hash % UInt64(count))
    }

    /// Applies this shard's events of `stretch`, as ``ReplaySession`` would have in line order.
    ///
    /// - Parameters:
    ///   - clockBefore: the replay clock after the lines before the stretch.
    ///   - firstTime: the stream's first stated time, when one is known by the end of the stretch.
    mutating func apply(_ stretch: ReplayStretch, shard: Int, clockBefore: Timestamp?, firstTime: Timestamp?) {
        let shard = UInt8(truncatingIfNeeded: shard)
        // Through buffer pointers: the events are read in place, never copied out (an event
        // is a few hundred bytes, and copying them was most of a replay's time).
        // Each shard reads only its own events and nothing writes to them; the pointer is
        // mutable only to hand them on `inout` (`Monitor.apply(stored:)` says why).
        stretch.events.withUnsafeBufferPointer { events in
            let stored = UnsafeMutableBufferPointer(mutating: events)
            stretch.shards.withUnsafeBufferPointer { shards in
                for index in 0..<stretch.eventCount where shards[index] == shard {
                    let time: Timestamp
                    if let stated = events[index].statedTime {
                        time = stated
                    } else if let clock = Self.later(clockBefore, stretch.clocks[index]) {
                        time = clock
                    } else {
                        self.waiting.append(events[index])
                        continue
                    }
                    // A time is known: the events that waited for one happen at the stream's first.
                    if !self.waiting.isEmpty, let firstTime { self.release(at: firstTime) }
                    self.monitor.apply(stored: &stored[index], at: time)
                }
            }
        }
    }

    /// Applies the events that waited for a time.
    mutating func release(at time: Timestamp) {
        for event in self.waiting { self.monitor.apply(event, at: time) }
        self.waiting.removeAll()
    }

    static func later(_ first: Timestamp?, _ second: Timestamp?) -> Timestamp? {
        guard let first, let second else { return first ?? second }
        return max(first, second)
    }
}
