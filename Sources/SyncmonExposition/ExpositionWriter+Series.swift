extension ExpositionWriter {
    // Lines of many series of one family, from ``SeriesLines`` and ``SeriesLabels``: the
    // `/metrics` per-pair families, some 100 lines per pair. Each call checks the room once for
    // all its lines and writes them through one cursor; each line is head, labels, tail, value.
    // The bytes are those of `sample`, `stateSet` and `histogram` with the same labels.

    /// The most bytes a value and its newline take.
    private static var valueRoom: Int { NumberRendering.maximumSampleValueLength + 1 }

    /// Writes the head, the series' labels and tail `tail`: the line up to its value. In
    /// blocks (all three are padded), so each room below leaves ``ByteCursor/blockSlack`` over.
    @inline(__always)
    private static func putStart(_ lines: SeriesLines, _ labels: SeriesLabel, _ tail: Int, to cursor: inout ByteCursor) {
        cursor.putBlocks(lines.head)
        cursor.putBlocks(labels.bytes)
        cursor.putBlocks(lines.tail(tail))
    }

    /// Debug check that `lines` belong to the open family.
    @inline(__always)
    private func assertLines(_ lines: SeriesLines) {
        assert(lines.familyName == self.openFamily, "sample of \(lines.familyName) outside its family; call family(_:) first")
    }

    /// Writes one sample: `name{labels<tail>} value`.
    public mutating func sample(_ lines: SeriesLines, labels: SeriesLabel, tail: Int = 0, value: UInt64) {
        self.sample(lines, labels, tail, .unsigned(value))
    }

    /// Writes one sample with a signed value.
    public mutating func sample(_ lines: SeriesLines, labels: SeriesLabel, tail: Int = 0, value: Int) {
        self.sample(lines, labels, tail, .signed(Int64(value)))
    }

    /// Writes one sample with a floating-point value.
    public mutating func sample(_ lines: SeriesLines, labels: SeriesLabel, tail: Int = 0, value: Double) {
        self.sample(lines, labels, tail, .double(value))
    }

    /// Writes one sample whose value is a time given in microseconds, spelled as the seconds
    /// `Double(microseconds) / 1e6` would be.
    public mutating func sample(_ lines: SeriesLines, labels: SeriesLabel, tail: Int = 0, microseconds: Int64) {
        self.sample(lines, labels, tail, .microseconds(microseconds))
    }

    /// The one writer of a series line with a value of any kind.
    @inline(__always)
    private mutating func sample(_ lines: SeriesLines, _ labels: SeriesLabel, _ tail: Int, _ value: LineValue) {
        self.assertLines(lines)
        self.withRoom(lines.longestFixedPart + labels.bytes.count + Self.valueRoom + ByteCursor.blockSlack) { cursor in
            Self.putStart(lines, labels, tail, to: &cursor)
            value.put(to: &cursor)
            cursor.put(UInt8(ascii: "\n"))
        }
    }

    /// Writes one sample with labels of its own after the series' (`lines` without extras):
    /// `name{labels,extra} value`.
    public mutating func sample(_ lines: SeriesLines, labels: SeriesLabel, extra: LabelSet, value: UInt64) {
        self.sample(lines, labels, extra, .unsigned(value))
    }

    /// Writes one sample with labels of its own and a floating-point value.
    public mutating func sample(_ lines: SeriesLines, labels: SeriesLabel, extra: LabelSet, value: Double) {
        self.sample(lines, labels, extra, .double(value))
    }

    /// The writer of a series line with labels of its own.
    private mutating func sample(_ lines: SeriesLines, _ labels: SeriesLabel, _ extra: LabelSet, _ value: LineValue) {
        self.assertLines(lines)
        self.withRoom(lines.longestFixedPart + labels.bytes.count + extra.bytes.count + 1 + Self.valueRoom) { cursor in
            cursor.put(lines.head)
            cursor.put(labels.bytes)
            if !extra.bytes.isEmpty {
                cursor.put(UInt8(ascii: ","))
                cursor.put(extra.bytes)
            }
            cursor.put(lines.tail(0))
            value.put(to: &cursor)
            cursor.put(UInt8(ascii: "\n"))
        }
    }

    /// Writes every state of a state set for one series, `1` for `active`; `group` picks the
    /// extra labels (`lines`' extras) the states come with.
    public mutating func stateSet(_ lines: SeriesLines, labels: SeriesLabel, group: Int = 0, active: Int) {
        self.assertLines(lines)
        let states = lines.lastsPerGroup
        precondition(active >= 0 && active < states, "state \(active) out of range for \(lines.familyName)")
        self.withRoom(states * (lines.longestFixedPart + labels.bytes.count + 2) + ByteCursor.blockSlack) { cursor in
            let first = group * states
            for state in 0..<states {
                Self.putStart(lines, labels, first + state, to: &cursor)
                cursor.put(state == active ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                cursor.put(UInt8(ascii: "\n"))
            }
        }
    }

    /// Writes every state of a flag-style state set for one series: state `i` is bit `i` of
    /// `activeMask`.
    public mutating func stateSet(_ lines: SeriesLines, labels: SeriesLabel, group: Int = 0, activeMask: UInt64) {
        self.assertLines(lines)
        let states = lines.lastsPerGroup
        assert(states == 64 || activeMask >> UInt64(states) == 0, "mask has bits beyond the states of \(lines.familyName)")
        self.withRoom(states * (lines.longestFixedPart + labels.bytes.count + 2) + ByteCursor.blockSlack) { cursor in
            let first = group * states
            for state in 0..<states {
                Self.putStart(lines, labels, first + state, to: &cursor)
                cursor.put(UInt8(truncatingIfNeeded: (activeMask >> UInt64(state)) & 1) &+ UInt8(ascii: "0"))
                cursor.put(UInt8(ascii: "\n"))
            }
        }
    }

    /// Writes one histogram series (cumulative buckets, `_sum`, `_count`) as
    /// ``histogram(_:labels:extra:bucketCounts:sum:)`` does; `group` picks the extra labels.
    public mutating func histogram(_ lines: HistogramLines, labels: SeriesLabel, group: Int = 0, bucketCounts: UnsafeBufferPointer<UInt64>, sum: Double) {
        self.assertLines(lines.buckets)
        let buckets = lines.buckets.lastsPerGroup
        precondition(bucketCounts.count == buckets, "\(lines.buckets.familyName) needs \(buckets) bucket counts, got \(bucketCounts.count)")
        let perLine = lines.longestFixedPart + labels.bytes.count + Self.valueRoom
        self.withRoom((buckets + 2) * perLine + ByteCursor.blockSlack) { cursor in
            var cumulative: UInt64 = 0
            let first = group * buckets
            for bucket in 0..<buckets {
                cumulative += bucketCounts[bucket]
                Self.putStart(lines.buckets, labels, first + bucket, to: &cursor)
                cursor.putDecimal(cumulative)
                cursor.put(UInt8(ascii: "\n"))
            }
            Self.putStart(lines.sum, labels, group, to: &cursor)
            NumberRendering.writeSampleValue(sum, to: &cursor)
            cursor.put(UInt8(ascii: "\n"))
            Self.putStart(lines.count, labels, group, to: &cursor)
            cursor.putDecimal(cumulative)
            cursor.put(UInt8(ascii: "\n"))
        }
    }
}
