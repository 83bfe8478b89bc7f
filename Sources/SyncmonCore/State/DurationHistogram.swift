/// Phase durations, bucketed for `syncmon_phase_duration_seconds`.
///
/// Counts are per bucket (not cumulative) so that an observation touches one slot; the metrics
/// writer accumulates when it renders. The buckets are stored inline: a `[UInt64]` was an
/// allocation of its own for every phase, three a pair (issue 36's memory per pair).
public struct DurationHistogram: Sendable {
    /// Upper bounds in seconds: sync cycles range from sub-second fetches to hour-long uploads.
    /// Seven bounds keep the family at ten series per phase: with a thousand engines every
    /// extra bucket costs three thousand lines per scrape.
    public static let bounds: [Double] = [0.5, 1, 5, 15, 60, 300, 1800]
    /// The buckets: one per bound, and the `+Inf` overflow.
    static let bucketCount = 8

    /// Observations per bucket; the last slot is the `+Inf` overflow.
    private var buckets: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Sum of all observations in seconds.
    public private(set) var sum: Double = 0
    /// Number of observations.
    public private(set) var count: UInt64 = 0

    public init() {}

    /// Observations per bucket, as an array made for the caller; ``withCounts(_:)`` reads them in place.
    public var counts: [UInt64] { self.withCounts { Array($0) } }

    /// Calls `body` with the observations per bucket, in place.
    public func withCounts<Result>(_ body: (UnsafeBufferPointer<UInt64>) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: self.buckets) { try body($0.bindMemory(to: UInt64.self)) }
    }

    public mutating func observe(_ span: TimeSpan) {
        let seconds = max(span.seconds, 0)
        var bucket = 0
        while bucket < Self.bounds.count, seconds > Self.bounds[bucket] { bucket += 1 }
        withUnsafeMutableBytes(of: &self.buckets) { raw in
            let offset = bucket * MemoryLayout<UInt64>.stride
            raw.storeBytes(of: raw.load(fromByteOffset: offset, as: UInt64.self) &+ 1, toByteOffset: offset, as: UInt64.self)
        }
        self.sum += seconds
        self.count += 1
    }
}

extension DurationHistogram: Equatable {
    public static func == (lhs: DurationHistogram, rhs: DurationHistogram) -> Bool {
        lhs.sum == rhs.sum && lhs.count == rhs.count && lhs.withCounts { left in rhs.withCounts { right in left.elementsEqual(right) } }
    }
}

extension DurationHistogram: Codable {
    private enum CodingKeys: String, CodingKey {
        case counts, sum, count
    }

    /// The saved form is the one of the array it was: `counts` as a list, then `sum` and `count`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A list of another length (bounds of another version) keeps what fits; the rest
        // counts as over the last bound.
        let counts = try container.decode([UInt64].self, forKey: .counts)
        withUnsafeMutableBytes(of: &self.buckets) { raw in
            for (index, value) in counts.enumerated() {
                let offset = min(index, Self.bucketCount - 1) * MemoryLayout<UInt64>.stride
                raw.storeBytes(of: raw.load(fromByteOffset: offset, as: UInt64.self) &+ value, toByteOffset: offset, as: UInt64.self)
            }
        }
        self.sum = try container.decode(Double.self, forKey: .sum)
        self.count = try container.decode(UInt64.self, forKey: .count)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.counts, forKey: .counts)
        try container.encode(self.sum, forKey: .sum)
        try container.encode(self.count, forKey: .count)
    }
}
