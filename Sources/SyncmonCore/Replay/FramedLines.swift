/// The lines of one part of a recording, framed for a parallel replay: where each starts, and
/// the shard of the engine it names (``EnginePeek``).
///
/// Each part of a block is framed once, on one core, and every shard reads the framing of
/// every part (``ReplayShard/replay(_:of:firstLine:)``). Before, every shard found every line's
/// end and peeked its engine itself: the same scan of the whole recording on each core.
struct FramedLines {
    /// Where each line starts, then one past the end of the last line's `\n` (or of the
    /// recording): line `i` is `starts[i] ..< starts[i + 1] - 1`.
    private(set) var starts: [Int] = []
    /// Each line's shard.
    private(set) var shards: [UInt16] = []

    /// The number of lines framed.
    var count: Int { self.shards.count }

    /// The bytes of line `index`, without its `\n`.
    @inline(__always)
    func line(_ index: Int, of recording: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: recording[self.starts[index]..<min(self.starts[index + 1] - 1, recording.count)])
    }

    /// Frames `range` of `recording`, which starts at a line's start and ends just after a `\n`
    /// or at the recording's end, for `shardCount` shards (at most 65,536). The buffers are
    /// kept from the part before.
    mutating func frame(_ recording: UnsafeRawBufferPointer, _ range: Range<Int>, shardCount: Int) {
        self.starts.removeAll(keepingCapacity: true)
        self.shards.removeAll(keepingCapacity: true)
        var start = range.lowerBound
        while start < range.upperBound {
            let end = LineFramer.lineEnd(in: recording, from: start) ?? recording.count
            let name = EnginePeek.name(in: UnsafeRawBufferPointer(rebasing: recording[start..<end]))
            self.starts.append(start)
            self.shards.append(UInt16(truncatingIfNeeded: name.map { EnginePeek.shard(of: $0, count: shardCount) } ?? 0))
            start = end + 1
        }
        self.starts.append(start)
    }

    /// Where the first line after `offset` starts, at or after it: `offset` when a line starts
    /// there, else just after the next `\n`; the recording's end when there is none.
    static func lineStart(in recording: UnsafeRawBufferPointer, atOrAfter offset: Int) -> Int {
        guard offset > 0 else { return 0 }
        guard offset < recording.count else { return recording.count }
        if recording[offset - 1] == UInt8(ascii: "\n") { return offset }
        return LineFramer.lineEnd(in: recording, from: offset).map { $0 + 1 } ?? recording.count
    }
}
