extension ReplaySession {
    /// The smallest recording replayed on several threads: below it, starting workers costs
    /// more than they save (1 MiB decodes in about 2.5 ms on one core).
    public static let parallelThreshold = 1 << 20

    /// The bytes framed before they are replayed, in a parallel replay: the line starts of a
    /// block (about 100,000 lines of 160 bytes, 0.9 MB) are still in the caches when the shards
    /// read them, and each block costs two hand-overs between the threads (tens of microseconds).
    public static let blockSize = 16 << 20

    /// Replays a whole recording held in memory, as ``feed(_:)`` would, on `workers` threads.
    ///
    /// Pairs of different engines never touch each other (a `forget` reaches one engine's
    /// pairs), so each worker decodes and applies only the lines of the engines of its shard,
    /// to a session of its own (``ReplayShard``); the sessions are merged at the end. The
    /// recording is framed once, in blocks of `blockSize` bytes: each worker frames a part of
    /// the block (``FramedLines``), then replays its shard's lines of all the parts. The
    /// status, clock, line count and rejections come out as a sequential replay's. No decoded
    /// event crosses from one core to the other: storing them for the other core to apply, as
    /// the replay did before, left it waiting on memory.
    ///
    /// `perform(n, body)` runs `body(0..<n)` concurrently and returns when all are done
    /// (`DispatchQueue.concurrentPerform`; the core starts no threads itself). Falls back to
    /// ``feed(_:)`` for a recording under `parallelFrom` bytes, a session that already read
    /// lines, a pair limit (which depends on the order across engines), one worker, or a
    /// recording where a line's engine was not where ``EnginePeek`` looked.
    ///
    /// - Returns: the number of threads the recording was replayed on: 1 after a fallback.
    @discardableResult
    public mutating func feedAll(
        _ bytes: UnsafeRawBufferPointer, workers: Int, parallelFrom threshold: Int = Self.parallelThreshold, blockSize: Int = Self.blockSize,
        perform: (Int, (Int) -> Void) -> Void
    ) -> Int {
        // Looks follow one clock, the stream's: a shard's would stop where its engines do.
        guard workers > 1, !self.looks, self.lines == 0, self.framer.isAtLineStart, self.monitor.configuration.maximumPairs == .max,
            bytes.count >= threshold
        else {
            self.feed(bytes)
            return 1
        }
        var shards = (0..<workers).map { index in
            ReplayShard(
                session: ReplaySession(
                    configuration: self.monitor.configuration, maximumLineLength: self.decoder.maximumLineLength, keptRejections: self.keptRejections),
                index: index, count: workers)
        }
        var parts = [FramedLines](repeating: FramedLines(), count: workers)
        var replayed = [Bool](repeating: true, count: workers)
        var lines: UInt64 = 0
        var blockStart = 0
        while blockStart < bytes.count, !replayed.contains(false) {
            let blockEnd = FramedLines.lineStart(in: bytes, atOrAfter: blockStart + blockSize)
            // Each worker frames one part of the block, then replays its shard's lines of all
            // the parts, in order.
            let partSize = (blockEnd - blockStart + workers - 1) / workers
            let bounds = (0...workers).map { FramedLines.lineStart(in: bytes, atOrAfter: min(blockStart + $0 * partSize, blockEnd)) }
            parts.withUnsafeMutableBufferPointer { parts in
                perform(workers) { worker in parts[worker].frame(bytes, bounds[worker]..<bounds[worker + 1], shardCount: workers) }
            }
            let firstLine = lines
            shards.withUnsafeMutableBufferPointer { shards in
                replayed.withUnsafeMutableBufferPointer { replayed in
                    parts.withUnsafeBufferPointer { parts in
                        perform(workers) { worker in replayed[worker] = shards[worker].replay(parts, of: bytes, firstLine: firstLine) }
                    }
                }
            }
            lines += UInt64(parts.reduce(0) { $0 + $1.count })
            blockStart = blockEnd
        }
        guard !replayed.contains(false) else {
            self.feed(bytes)
            return 1
        }
        for index in shards.indices { shards[index].finish(bytes, lines: lines) }
        self.merge(shards.map(\.session))
        return workers
    }

    /// One session from the shards': their pairs and counts, the latest clock, the events that
    /// found no time in the whole recording, and the first rejected lines in line order.
    private mutating func merge(_ shards: [ReplaySession]) {
        var monitor = Monitor(configuration: self.monitor.configuration)
        var rejectedLines: [RejectedLine] = []
        for shard in shards {
            monitor.merge(shard.monitor)
            if let clock = shard.clock { self.clock = max(self.clock ?? clock, clock) }
            self.waiting += shard.waiting
            rejectedLines += shard.rejectedLines
        }
        self.monitor = monitor
        self.lines = shards.first?.lines ?? 0
        self.rejectedLines = Array(rejectedLines.sorted { $0.number < $1.number }.prefix(self.keptRejections))
    }
}
