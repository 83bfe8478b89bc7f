/// Writes one exposition — text 0.0.4 or OpenMetrics 1.0 — into a single growable byte buffer.
///
/// The writer is built for `/metrics` with ~120,000 series: everything that can be rendered ahead of
/// time is (family headers, sample names, `le` and state labels in ``MetricFamily``; per-engine labels
/// in ``LabelSet``), so a sample costs a few `memcpy`s into a preallocated buffer plus the digits of its
/// value. There is no `String` per sample, no dictionary and no sorting: output order is call order.
///
/// Usage: for each family, call ``family(_:)`` once, then write all its series; do not interleave
/// families (both formats forbid it; debug builds assert it). Finish with ``finish()``, which adds
/// OpenMetrics' `# EOF`.
///
/// ```swift
/// var writer = ExpositionWriter(format: .negotiate(accept: request.accept), capacity: lastSize)
/// writer.family(Families.phaseRuns)
/// for engine in engines {
///     writer.sample(Families.phaseRuns, labels: engine.labels, extra: Phases.importLabel, value: engine.importRuns)
/// }
/// let body = writer.finish()
/// ```
///
/// Samples never carry timestamps: Prometheus would then skip staleness handling for them.
public struct ExpositionWriter {
    /// The format being written.
    public let format: ExpositionFormat

    /// The exposition's bytes, when it is written whole: `buffer[..<length]` is written, the rest
    /// is zeroed room. Keeping the room initialized lets a whole line be written through one
    /// pointer after one capacity check, instead of paying `Array.append`'s checks for every
    /// piece of every line.
    var buffer: [UInt8]

    /// How many bytes of `buffer` (or of the streamed piece) are written.
    var length: Int

    /// The family whose header was written last; samples must belong to it. Only read by assertions.
    var openFamily: String = ""

    /// Where pieces go when the exposition is streamed; `nil` when it is written whole.
    private let pieces: (any ExpositionPieceSink)?
    /// The memory the piece being written goes into, lent by `pieces` (empty until the first line).
    private var room = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// How large a piece gets before it is handed over, and how much room is asked for.
    private let flushThreshold: Int
    private let roomSize: Int
    /// Whether the writer streams (`pieces` is set): read on every line, so a plain flag.
    private let streams: Bool

    /// Creates a writer with room for `capacity` bytes before the buffer has to grow.
    ///
    /// Passing the previous scrape's ``byteCount`` (plus a little) avoids every reallocation; ~90 bytes
    /// per series is a good first guess.
    public init(format: ExpositionFormat, capacity: Int = 64 * 1024) {
        self.format = format
        self.buffer = Array(repeating: 0, count: max(capacity, 256))
        self.length = 0
        self.pieces = nil
        self.flushThreshold = .max
        self.roomSize = 0
        self.streams = false
    }

    /// Creates a writer that streams into `pieces`: each time about `pieceSize` bytes are
    /// written they are committed and the sink lends room for the next, so a large exposition
    /// is never held whole and can be sent while the rest is still being written, from the
    /// memory it was written into. Pieces end at line boundaries.
    public init(format: ExpositionFormat, pieceSize: Int, pieces: any ExpositionPieceSink) {
        self.format = format
        self.buffer = []
        self.length = 0
        self.pieces = pieces
        self.flushThreshold = max(pieceSize, 256)
        // A piece and a quarter: a piece ends with the line that crosses the threshold.
        self.roomSize = max(pieceSize + pieceSize / 4, 4096)
        self.streams = true
    }

    /// Creates a writer that streams in pieces of about `pieceSize` bytes, each lent to `sink`
    /// for the call (an ``ExpositionPieceBuffer``).
    public init(format: ExpositionFormat, pieceSize: Int, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.init(format: format, pieceSize: pieceSize, pieces: ExpositionPieceBuffer(lend: sink))
    }

    /// Bytes written so far.
    public var byteCount: Int { self.length }

    /// Writes a family's `# HELP`/`# TYPE` (and in OpenMetrics `# UNIT`) lines. Call once per family,
    /// before its samples, even if it will have none.
    public mutating func family(_ family: MetricFamily) {
        self.openFamily = family.name
        self.write(family.header(for: self.format))
    }

    /// Writes one sample of a counter, gauge or info family.
    ///
    /// - Parameters:
    ///   - labels: the series' base labels, e.g. `engine` and `database`.
    ///   - extra: labels specific to this sample, e.g. `phase="import"`; written after `labels`.
    ///   - value: the value; integral values take a fast path.
    public mutating func sample(
        _ family: MetricFamily,
        labels: LabelSet = .empty,
        extra: LabelSet = .empty,
        value: Double
    ) {
        self.assertSample(of: family)
        self.assertCounterValue(family, value)
        self.writeLine(family.sampleName, labels, extra, [], .double(value))
    }

    /// Writes one sample with an integer value (gauges such as counts, or whole Unix seconds).
    public mutating func sample(
        _ family: MetricFamily,
        labels: LabelSet = .empty,
        extra: LabelSet = .empty,
        value: Int
    ) {
        self.assertSample(of: family)
        assert(family.kind != .counter || value >= 0, "counter \(family.name) must not be negative")
        self.writeLine(family.sampleName, labels, extra, [], .signed(Int64(value)))
    }

    /// Writes one sample with an unsigned integer value, the natural type of a counter.
    public mutating func sample(
        _ family: MetricFamily,
        labels: LabelSet = .empty,
        extra: LabelSet = .empty,
        value: UInt64
    ) {
        self.assertSample(of: family)
        self.writeLine(family.sampleName, labels, extra, [], .unsigned(value))
    }

    /// Returns the finished exposition, ending OpenMetrics output with the `# EOF` line it requires
    /// (a response without it must be treated as wholly invalid).
    ///
    /// A streaming writer hands its last piece to the sink and returns nothing.
    public consuming func finish() -> [UInt8] {
        if self.format == .openMetrics {
            self.write(Array("# EOF\n".utf8))
        }
        if let pieces = self.pieces {
            if self.length > 0 { pieces.commit(self.length) }
            return []
        }
        self.buffer.removeLast(self.buffer.count - self.length)
        return self.buffer
    }

    /// Commits the piece written (if any) and takes room for the next, at least `minimum`
    /// bytes (streaming writers only).
    @inline(never)
    private mutating func nextPiece(minimum: Int) {
        guard let pieces = self.pieces else { return }
        if self.length > 0 { pieces.commit(self.length) }
        self.room = pieces.room(minimum: max(minimum, self.roomSize))
        self.length = 0
    }

    // MARK: - Internals shared by the typed writers

    /// A sample value as the line writer takes it.
    enum LineValue {
        case unsigned(UInt64)
        case signed(Int64)
        case double(Double)
        /// A time in microseconds, spelled as the seconds `Double(microseconds) / 1e6` would be.
        case microseconds(Int64)

        /// Writes the value.
        @inline(__always)
        func put(to cursor: inout ByteCursor) {
            switch self {
            case .unsigned(let value): cursor.putDecimal(value)
            case .signed(let value): NumberRendering.writeInteger(value, to: &cursor)
            case .double(let value): NumberRendering.writeSampleValue(value, to: &cursor)
            case .microseconds(let value): NumberRendering.writeMicroseconds(value, to: &cursor)
            }
        }
    }

    /// Makes room for `maximum` bytes, lets `body` write at most that many, and counts them:
    /// one capacity check per call, then plain copies through one cursor. A streaming writer
    /// writes into the room its sink lent, and commits the piece once it is full.
    @inline(__always)
    mutating func withRoom(_ maximum: Int, _ body: (inout ByteCursor) -> Void) {
        if self.streams {
            if self.length + maximum > self.room.count { self.nextPiece(minimum: maximum) }
            let start = self.room.baseAddress!.bindMemory(to: UInt8.self, capacity: self.room.count) + self.length
            var cursor = ByteCursor(start)
            body(&cursor)
            self.length += cursor.position - start
            if self.length >= self.flushThreshold { self.nextPiece(minimum: 0) }
            return
        }
        if self.length + maximum > self.buffer.count {
            self.grow(toFit: maximum)
        }
        let offset = self.length
        let written = self.buffer.withUnsafeMutableBufferPointer { storage in
            let start = storage.baseAddress! + offset
            var cursor = ByteCursor(start)
            body(&cursor)
            return cursor.position - start
        }
        self.length += written
    }

    /// Writes `name{labels,extra,last} value\n` — or `name value\n` when there are no labels at all.
    ///
    /// `last` is one pre-rendered label (`le="0.5"`, `status="ok"`) or empty. This is the hot path:
    /// one capacity check, then plain copies.
    @inline(__always)
    mutating func writeLine(
        _ name: [UInt8],
        _ labels: LabelSet,
        _ extra: LabelSet,
        _ last: [UInt8],
        _ value: LineValue
    ) {
        let labelBytes = labels.bytes
        let extraBytes = extra.bytes
        // Name, the three label parts, `{`, two commas, `}`, space, value, newline.
        let maximum =
            name.count + labelBytes.count + extraBytes.count + last.count + 6
            + NumberRendering.maximumSampleValueLength
        self.withRoom(maximum) { cursor in
            cursor.put(name)
            let hasLabels = !labelBytes.isEmpty
            let hasExtra = !extraBytes.isEmpty
            let hasLast = !last.isEmpty
            if hasLabels || hasExtra || hasLast {
                cursor.put(UInt8(ascii: "{"))
                cursor.put(labelBytes)
                if hasExtra {
                    if hasLabels { cursor.put(UInt8(ascii: ",")) }
                    cursor.put(extraBytes)
                }
                if hasLast {
                    if hasLabels || hasExtra { cursor.put(UInt8(ascii: ",")) }
                    cursor.put(last)
                }
                cursor.put(UInt8(ascii: "}"))
            }
            cursor.put(UInt8(ascii: " "))
            value.put(to: &cursor)
            cursor.put(UInt8(ascii: "\n"))
        }
    }

    /// Appends pre-rendered bytes (headers, `# EOF`).
    private mutating func write(_ bytes: [UInt8]) {
        self.withRoom(bytes.count) { $0.put(bytes) }
    }

    /// Makes room for at least `needed` more bytes, at least doubling so growth stays amortized O(1).
    @inline(never)
    mutating func grow(toFit needed: Int) {
        let newCount = max(self.buffer.count * 2, self.length + needed)
        self.buffer.append(contentsOf: repeatElement(0, count: newCount - self.buffer.count))
    }

    /// Debug check that `family` is the open one and is written with a method that fits its kind.
    @inline(__always)
    func assertSample(of family: MetricFamily, kind expected: KindCheck = .plain) {
        assert(family.name == self.openFamily, "sample of \(family.name) outside its family; call family(_:) first")
        switch expected {
        case .plain:
            assert(
                family.kind == .counter || family.kind == .gauge || family.kind == .info,
                "\(family.name) needs its own writer method (histogram(_:) or stateSet(_:))"
            )
        case .histogram:
            assert(family.bucketName.isEmpty == false, "\(family.name) is not a histogram")
        case .stateSet:
            assert(family.kind.isStateSet, "\(family.name) is not a state set")
        }
    }

    /// Debug check of what both formats require of counters: never negative, never NaN.
    @inline(__always)
    private func assertCounterValue(_ family: MetricFamily, _ value: Double) {
        assert(family.kind != .counter || value >= 0, "counter \(family.name) must be a non-negative number")
    }

    /// Which writer method a sample came through, for ``assertSample(of:kind:)``.
    enum KindCheck {
        /// ``sample(_:labels:extra:value:)``: counters, gauges, info.
        case plain
        /// ``histogram(_:labels:extra:bucketCounts:sum:)``.
        case histogram
        /// ``stateSet(_:labels:extra:active:)`` and ``stateSet(_:labels:extra:activeMask:)``.
        case stateSet
    }
}
