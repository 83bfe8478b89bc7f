/// What a metric family measures, which decides its `TYPE` line and how its samples are written.
public enum MetricKind: Sendable, Hashable {
    /// A monotonically increasing count. The family name ends in `_total`.
    case counter
    /// A value that can go up and down, including `*_timestamp_seconds` timestamps.
    case gauge
    /// Cumulative buckets with these finite upper bounds (strictly increasing, non-negative); the
    /// `+Inf` bucket is always added and must not be listed.
    case histogram(buckets: [Double])
    /// One 0/1 series per state, the state named by the label `label`. Written as a gauge in both
    /// formats (see ``MetricFamily`` for why).
    case stateSet(label: String, states: [String])
    /// Constant `1` carrying textual labels such as `version`. Written as a gauge in both formats.
    case info
}
