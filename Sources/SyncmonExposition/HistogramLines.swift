/// A histogram family's ``SeriesLines``: its `_bucket` lines (a tail per bucket), its `_sum` and
/// its `_count` line, each once for every extra label set.
public struct HistogramLines: Sendable {
    let buckets: SeriesLines
    let sum: SeriesLines
    let count: SeriesLines

    /// The lines of histogram `family`, once for each of `extras` (or once without extra labels).
    public init(_ family: MetricFamily, extras: [LabelSet] = []) {
        self.buckets = SeriesLines(family, part: .buckets, extras: extras)
        self.sum = SeriesLines(family, part: .sum, extras: extras)
        self.count = SeriesLines(family, part: .count, extras: extras)
    }

    /// The longest head plus tail of the three, for the writer's capacity check.
    var longestFixedPart: Int {
        max(self.buckets.longestFixedPart, self.sum.longestFixedPart, self.count.longestFixedPart)
    }
}
