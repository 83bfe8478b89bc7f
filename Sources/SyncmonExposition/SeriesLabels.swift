/// Many series' own labels (`engine="notes",database="private"`), rendered once per render into
/// one buffer, for the lines of ``SeriesLines``.
///
/// One buffer rather than a ``LabelSet`` per series: building 10,000 label sets was 20,000
/// allocations per scrape, and reading one per line retained (and released) its two arrays.
///
/// Build with ``label(_:_:)`` calls, each series closed by ``endSeries()``, then read the series
/// through ``withSeries(_:)``.
public struct SeriesLabels {
    /// The labels of every series, back to back.
    private var bytes: [UInt8] = []
    /// Where each series' labels end in `bytes`.
    private var ends: [Int] = []
    /// Whether the open series has a label yet (the next one then needs a comma).
    private var seriesHasLabel = false

    /// Room for `series` series of about `bytesPerSeries` bytes.
    public init(reservingSeries series: Int, bytesPerSeries: Int = 48) {
        self.bytes.reserveCapacity(series * bytesPerSeries)
        self.ends.reserveCapacity(series)
    }

    /// How many series are closed.
    public var count: Int { self.ends.count }

    /// Adds `name="value"` to the open series, the value escaped. `name` comes from code and must
    /// be a valid label name, not repeated within the series.
    public mutating func label(_ name: StaticString, _ value: UnsafeRawBufferPointer) {
        assert(ExpositionNames.isValidLabelName(name.description), "invalid label name \(name)")
        if self.seriesHasLabel { self.bytes.append(UInt8(ascii: ",")) }
        self.bytes.append(contentsOf: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        self.bytes.append(UInt8(ascii: "="))
        self.bytes.append(UInt8(ascii: "\""))
        Escaping.appendLabelValue(value, to: &self.bytes)
        self.bytes.append(UInt8(ascii: "\""))
        self.seriesHasLabel = true
    }

    /// Closes the open series; the next label starts another.
    public mutating func endSeries() {
        assert(self.seriesHasLabel, "a series of SeriesLabels needs at least one label")
        self.ends.append(self.bytes.count)
        self.seriesHasLabel = false
    }

    /// Calls `body` with each closed series' labels, in order; they are valid during the call only.
    ///
    /// Mutating only to pad the buffer meanwhile with readable bytes past the last series, for
    /// the writer's block copies (`ByteCursor.putBlocks`).
    public mutating func withSeries<Result>(_ body: (UnsafeBufferPointer<SeriesLabel>) -> Result) -> Result {
        self.bytes.append(contentsOf: repeatElement(0, count: ByteCursor.blockSlack))
        defer { self.bytes.removeLast(ByteCursor.blockSlack) }
        return self.bytes.withUnsafeBytes { raw in
            var series: [SeriesLabel] = []
            series.reserveCapacity(self.ends.count)
            var start = 0
            for end in self.ends {
                series.append(SeriesLabel(bytes: UnsafeRawBufferPointer(rebasing: raw[start..<end])))
                start = end
            }
            return series.withUnsafeBufferPointer(body)
        }
    }
}
