/// One worker's part of a parallel replay (``ReplaySession/feedAll(_:workers:parallelFrom:blockSize:perform:)``):
/// it replays the lines of the engines of its shard, block by block, as ``FramedLines`` found
/// them.
///
/// A line is given to a shard by the engine ``EnginePeek`` finds in it (a line that names
/// none, to shard 0), and only that shard decodes it. Every accepted line's engine is checked
/// against the peek, so a pair never has events on two shards; one line that disagrees stops
/// the shard, and the recording is replayed on one thread instead.
///
/// The clock of an untimed event is the latest time stated on any line before it, other
/// shards' lines included. Those are decoded only when an event needs the clock (it has no
/// time, or events wait for the first time), from where the last such catch-up stopped: a
/// recording whose events all carry a time never decodes a line twice.
struct ReplayShard {
    var session: ReplaySession
    let index: Int
    let count: Int
    /// The byte offset up to which the other shards' lines have been read for their times.
    private var caughtUp = 0
    /// The other shards' lines are decoded into this, for their times only.
    private var scratch = Event(engine: InlineName(), payload: .heartbeat)

    init(session: ReplaySession, index: Int, count: Int) {
        self.session = session
        self.index = index
        self.count = count
    }

    /// Replays this shard's lines of one block of `recording`, as its parts were framed, in
    /// order; `firstLine` is the number of the lines before the block. `false` when a line's
    /// engine was not the one the peek found, and this shard's session is then not a replay
    /// of anything.
    mutating func replay(_ parts: UnsafeBufferPointer<FramedLines>, of recording: UnsafeRawBufferPointer, firstLine: UInt64) -> Bool {
        var number = firstLine
        let shard = UInt16(truncatingIfNeeded: self.index)
        for part in parts {
            for index in 0..<part.count {
                number += 1
                guard part.shards[index] == shard else { continue }
                let piece = part.line(index, of: recording)
                if !self.read(piece, named: EnginePeek.name(in: piece), number: number, at: part.starts[index], of: recording) { return false }
            }
        }
        return true
    }

    /// Ends the replay after the last block: `lines` were read in all, and events that waited
    /// for a time happen at the first one stated anywhere.
    mutating func finish(_ recording: UnsafeRawBufferPointer, lines: UInt64) {
        self.session.lines = lines
        if !self.session.waiting.isEmpty { self.catchUp(recording, to: recording.count) }
    }

    /// Decodes and takes line `number` of this shard, which starts at `start`.
    private mutating func read(
        _ piece: UnsafeRawBufferPointer, named name: UnsafeRawBufferPointer?, number: UInt64, at start: Int, of recording: UnsafeRawBufferPointer
    ) -> Bool {
        guard case .line(let line) = LineFramer.line(piece, maximumLineLength: self.session.decoder.maximumLineLength) else {
            self.session.reject(Rejection(.tooLarge), number: number, line: nil)
            return true
        }
        let outcome = self.session.decode(line)
        if outcome == .event {
            guard let name, self.session.decodedEngine(is: name) else { return false }
            if self.session.decodedNeedsClock { self.catchUp(recording, to: start) }
        }
        self.session.take(outcome, of: line, number: number)
        return true
    }

    /// Moves the clock over the times stated on the other shards' lines before `end`.
    private mutating func catchUp(_ recording: UnsafeRawBufferPointer, to end: Int) {
        var start = self.caughtUp
        while start < end {
            let lineEnd = LineFramer.lineEnd(in: recording, from: start) ?? recording.count
            let piece = UnsafeRawBufferPointer(rebasing: recording[start..<lineEnd])
            if !self.owns(EnginePeek.name(in: piece)), case .line(let line) = LineFramer.line(piece, maximumLineLength: self.session.decoder.maximumLineLength),
                self.session.decoder.decode(line, into: &self.scratch) == .event, let time = self.scratch.statedTime
            {
                self.session.advanceClock(to: time)
            }
            start = lineEnd + 1
        }
        self.caughtUp = max(self.caughtUp, start)
    }

    /// Whether a line naming `name` (as peeked) is this shard's.
    @inline(__always)
    private func owns(_ name: UnsafeRawBufferPointer?) -> Bool {
        guard let name else { return self.index == 0 }
        return EnginePeek.shard(of: name, count: self.count) == self.index
    }
}
