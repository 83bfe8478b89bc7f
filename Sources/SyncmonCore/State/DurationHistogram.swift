/// Phase durations, bucketed for `syncmon_phase_duration_seconds`.
///
/// Counts are per bucket (not cumulative) so that an observation touches one slot; the metrics
/// writer accumulates when it renders.
public struct DurationHistogram: Equatable, Sendable, Codable {
    /// Upper bounds in seconds: sync cycles range from sub-second fetches to hour-long uploads.
    /// Seven bounds keep the family at ten series per phase: with a thousand engines every
    /// extra bucket costs three thousand lines per scrape.
    public static let bounds: [Double] = [0.5, 1, 5, 15, 60, 300, 1800]

    /// Observations per bucket; the last slot is the `+Inf` overflow.
    public private(set) var counts = [UInt64](repeating: 0, count: DurationHistogram.bounds.count + 1)
    /// Sum of all observations in seconds.
    public private(set) var sum: Double = 0
    /// Number of observations.
    public private(set) var count: UInt64 = 0

    public init() {}

    public mutating func observe(_ span: TimeSpan) {
        let seconds = max(span.seconds, 0)
        var bucket = 0
        while bucket < Self.bounds.count, seconds > Self.bounds[bucket] { bucket += 1 }
        self.counts[bucket] += 1
        self.sum += seconds
        self.count += 1
    }
}
