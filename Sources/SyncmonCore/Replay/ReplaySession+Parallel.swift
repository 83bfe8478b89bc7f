extension ReplaySession {
    /// Bytes a worker decodes per block: large enough that the two barriers per block are
    /// noise, small enough that a block's decoded events (about 2.6 MB a stretch, at 400 bytes
    /// an event) are still in cache when the other worker applies them. 4 MiB stretches left
    /// every apply waiting on memory: a 1M-line replay took 0.34 s against 0.25 s now, and
    /// 256 KiB ones paid for their barriers (0.28 s). A recording under two stretches is
    /// replayed on one thread: workers would cost more than they save.
    public static let stretchSize = 1 << 20

    /// Replays a whole recording held in memory, as ``feed(_:)`` would, on `workers` threads.
    ///
    /// Each block of the recording is cut at line ends into one stretch per worker, which
    /// frames and decodes its stretch; then each worker applies, in line order, the events of
    /// the engines of its shard from every stretch, to a monitor of its own. Pairs of
    /// different engines never interact, so the merged monitors, the line count, the
    /// rejections and the clock come out as a sequential replay's. `perform(n, body)` runs
    /// `body(0..<n)` concurrently and returns when all are done (`DispatchQueue.concurrentPerform`;
    /// the core starts no threads itself). Falls back to ``feed(_:)`` for a session that already
    /// read lines, a pair limit (which depends on the order across engines), or one worker.
    public mutating func feedAll(
        _ bytes: UnsafeRawBufferPointer, workers: Int, stretchSize: Int = Self.stretchSize, perform: (Int, (Int) -> Void) -> Void
    ) {
        guard workers > 1, self.lines == 0, self.monitor.configuration.maximumPairs == .max, bytes.count >= 2 * stretchSize else {
            self.feed(bytes)
            return
        }
        var shards = [ReplayShard](repeating: ReplayShard(monitor: Monitor(configuration: self.monitor.configuration)), count: workers)
        var stretches = [ReplayStretch](repeating: ReplayStretch(), count: workers)
        var rejected = [UInt64](repeating: 0, count: RejectionReason.allCases.count)
        var start = 0
        var streamFirstTime: Timestamp? = nil
        while start < bytes.count {
            let bounds = Self.stretches(of: bytes, from: start, count: workers, size: stretchSize)
            start = bounds.last!.upperBound
            self.decode(bytes, bounds, into: &stretches, perform: perform)
            // The clock before each stretch, and the stream's first time as far as it is known.
            var clocks: [Timestamp?] = []
            var clock = self.clock
            var firstTime = streamFirstTime
            for stretch in stretches {
                clocks.append(clock)
                clock = ReplayShard.later(clock, stretch.latestTime)
                if firstTime == nil { firstTime = stretch.firstTime }
            }
            streamFirstTime = firstTime
            self.apply(stretches, clocks: clocks, firstTime: firstTime, to: &shards, perform: perform)
            for stretch in stretches { self.absorb(stretch, rejected: &rejected) }
            self.clock = clock
        }
        self.merge(shards, rejected: rejected, firstTime: streamFirstTime)
    }

    /// Block boundaries from `start`: `count` stretches of about `size` bytes, each ending
    /// just after a `\n` (or at the end of the recording).
    private static func stretches(of bytes: UnsafeRawBufferPointer, from start: Int, count: Int, size: Int) -> [Range<Int>] {
        var bounds: [Range<Int>] = []
        var lower = start
        for _ in 0..<count {
            var upper = min(lower + size, bytes.count)
            while upper < bytes.count, bytes[upper - 1] != 0x0A { upper += 1 }
            bounds.append(lower..<upper)
            lower = upper
        }
        return bounds
    }

    /// Each worker frames and decodes its stretch.
    private func decode(_ bytes: UnsafeRawBufferPointer, _ bounds: [Range<Int>], into stretches: inout [ReplayStretch], perform: (Int, (Int) -> Void) -> Void) {
        let decoder = self.decoder
        let kept = self.keptRejections
        let shardCount = bounds.count
        stretches.withUnsafeMutableBufferPointer { stretches in
            perform(bounds.count) { worker in
                let stretch = UnsafeRawBufferPointer(rebasing: bytes[bounds[worker]])
                stretches[worker].decode(stretch, decoder: decoder, keptRejections: kept, shardCount: shardCount)
            }
        }
    }

    /// Each worker applies its shard's events of every stretch, in line order.
    private func apply(
        _ stretches: [ReplayStretch], clocks: [Timestamp?], firstTime: Timestamp?, to shards: inout [ReplayShard], perform: (Int, (Int) -> Void) -> Void
    ) {
        shards.withUnsafeMutableBufferPointer { shards in
            perform(shards.count) { worker in
                for (index, stretch) in stretches.enumerated() {
                    shards[worker].apply(stretch, shard: worker, clockBefore: clocks[index], firstTime: firstTime)
                }
            }
        }
    }

    /// Counts a decoded stretch's lines and keeps its first rejections, numbered in the stream.
    private mutating func absorb(_ stretch: ReplayStretch, rejected: inout [UInt64]) {
        for reason in rejected.indices { rejected[reason] += stretch.rejected[reason] }
        for var line in stretch.rejectedLines where self.rejectedLines.count < self.keptRejections {
            line.number += self.lines
            self.rejectedLines.append(line)
        }
        self.lines += stretch.lines
    }

    /// One monitor from the shards', the decoder's rejections counted; events that still wait
    /// for a time are applied at the first, or left to ``finish(fallbackTime:)`` when none came.
    private mutating func merge(_ shards: [ReplayShard], rejected: [UInt64], firstTime: Timestamp?) {
        var monitor = Monitor(configuration: self.monitor.configuration)
        for var shard in shards {
            if !shard.waiting.isEmpty, let firstTime { shard.release(at: firstTime) }
            self.waiting += shard.waiting
            monitor.merge(shard.monitor)
        }
        monitor.count(rejected)
        self.monitor = monitor
    }
}
