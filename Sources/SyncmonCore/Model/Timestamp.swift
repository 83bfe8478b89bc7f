/// A point in time: whole microseconds since the Unix epoch (UTC).
///
/// Event times come from RFC 3339 strings with fractional seconds; microseconds keep every
/// precision engines send in practice while fitting in one `Int64` (±292,000 years), so time
/// arithmetic on the hot path is plain integer arithmetic.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public init(seconds: Int64) {
        self.microseconds = seconds &* 1_000_000
    }

    /// Before every real time.
    public static let distantPast = Timestamp(microseconds: .min)
    /// After every real time.
    public static let distantFuture = Timestamp(microseconds: .max)

    /// Seconds since the epoch, as Prometheus timestamps are written.
    public var seconds: Double {
        Double(self.microseconds) / 1_000_000
    }

    /// This time moved by `span`, saturating instead of overflowing on absurd inputs.
    public func adding(_ span: TimeSpan) -> Timestamp {
        let (sum, overflow) = self.microseconds.addingReportingOverflow(span.microseconds)
        if overflow {
            return Timestamp(microseconds: span.microseconds > 0 ? .max : .min)
        }
        return Timestamp(microseconds: sum)
    }

    /// The time elapsed from `earlier` to this time (negative when `earlier` is later).
    public func since(_ earlier: Timestamp) -> TimeSpan {
        let (difference, overflow) = self.microseconds.subtractingReportingOverflow(earlier.microseconds)
        return TimeSpan(microseconds: overflow ? (earlier.microseconds > 0 ? .min : .max) : difference)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}

/// A length of time in whole microseconds: stall thresholds, heartbeat intervals, retry-after.
public struct TimeSpan: Hashable, Comparable, Sendable {
    /// The length in microseconds; may be negative for differences.
    public var microseconds: Int64

    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    public static let zero = TimeSpan(microseconds: 0)

    public static func seconds(_ seconds: Int64) -> TimeSpan {
        TimeSpan(microseconds: seconds.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : seconds * 1_000_000)
    }

    /// Converts fractional seconds, saturating at the representable range (a `retryAfter` of
    /// 1e300 seconds is absurd but must not trap).
    public static func seconds(_ seconds: Double) -> TimeSpan {
        let micros = (seconds * 1_000_000).rounded()
        if !(micros < 9.2e18) { return TimeSpan(microseconds: .max) }
        if !(micros > -9.2e18) { return TimeSpan(microseconds: .min) }
        return TimeSpan(microseconds: Int64(micros))
    }

    /// The length in seconds.
    public var seconds: Double {
        Double(self.microseconds) / 1_000_000
    }

    /// Multiplies, saturating at the representable range.
    public func multiplied(by factor: Int64) -> TimeSpan {
        let (product, overflow) = self.microseconds.multipliedReportingOverflow(by: factor)
        return TimeSpan(microseconds: overflow ? .max : product)
    }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool {
        lhs.microseconds < rhs.microseconds
    }
}

extension Timestamp: Codable {
    /// Persisted as the bare microsecond count.
    public init(from decoder: any Decoder) throws {
        self.microseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.microseconds)
    }
}

extension TimeSpan: Codable {
    /// Persisted as the bare microsecond count.
    public init(from decoder: any Decoder) throws {
        self.microseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.microseconds)
    }
}
