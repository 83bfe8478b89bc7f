extension ExpositionWriter {
    /// Writes one histogram series: cumulative `_bucket` lines in increasing `le` order ending with
    /// `le="+Inf"`, then `_sum` and `_count`.
    ///
    /// The caller passes plain per-bucket counts — what recording an observation increments — and the
    /// writer accumulates them, so the invariants both formats demand hold by construction: buckets
    /// never decrease, and the `+Inf` bucket equals `_count`.
    ///
    /// - Parameters:
    ///   - bucketCounts: observations per bucket, one per bound of the family plus a last one for
    ///     observations above the highest bound; not cumulative.
    ///   - sum: the sum of all observations (non-negative, since bounds are).
    public mutating func histogram(
        _ family: MetricFamily,
        labels: LabelSet = .empty,
        extra: LabelSet = .empty,
        bucketCounts: [UInt64],
        sum: Double
    ) {
        self.assertSample(of: family, kind: .histogram)
        precondition(
            bucketCounts.count == family.bucketLabels.count,
            "\(family.name) needs \(family.bucketLabels.count) bucket counts (bounds plus +Inf), "
                + "got \(bucketCounts.count)"
        )
        // OpenMetrics: sum and buckets are counters semantically, so never negative or NaN.
        assert(sum >= 0, "histogram \(family.name) sum must be a non-negative number")
        var cumulative: UInt64 = 0
        for (count, bucketLabel) in zip(bucketCounts, family.bucketLabels) {
            cumulative += count
            self.writeLine(family.bucketName, labels, extra, bucketLabel, .unsigned(cumulative))
        }
        self.writeLine(family.sumName, labels, extra, [], .double(sum))
        self.writeLine(family.countName, labels, extra, [], .unsigned(cumulative))
    }
}
