/// Why a metric family or label set was refused.
///
/// Names and label names come from code, not users, so the trapping constructors
/// (``MetricFamily/counter(_:help:unit:)`` and friends, ``LabelSet/init(_:)``) turn these into a crash
/// at startup; the throwing ones exist so tests can check each rule.
public enum MetricDefinitionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The metric name does not match `[a-zA-Z_][a-zA-Z0-9_]*`, or breaks one of our stricter rules.
    case invalidMetricName(String)
    /// The label name does not match `[a-zA-Z_][a-zA-Z0-9_]*`, or is reserved.
    case invalidLabelName(String)
    /// The same label name appears twice in one label set.
    case duplicateLabelName(String)
    /// The name breaks a naming rule `promtool check metrics` lints: a suffix that does not fit the
    /// type, or a type name inside the name.
    case namingRule(name: String, reason: String)
    /// The help text is empty; promtool reports "no help text".
    case emptyHelp(String)
    /// The unit is malformed or is not the family name's suffix, as OpenMetrics requires.
    case invalidUnit(name: String, unit: String)
    /// Histogram bounds are not finite, non-negative and strictly increasing.
    case invalidBuckets(name: String)
    /// A state set has no states, duplicate states, or more states than a mask can hold.
    case invalidStates(name: String)

    public var description: String {
        switch self {
        case .invalidMetricName(let name): "invalid metric name \"\(name)\""
        case .invalidLabelName(let name): "invalid label name \"\(name)\""
        case .duplicateLabelName(let name): "duplicate label name \"\(name)\""
        case .namingRule(let name, let reason): "metric \"\(name)\": \(reason)"
        case .emptyHelp(let name): "metric \"\(name)\" has no help text"
        case .invalidUnit(let name, let unit): "unit \"\(unit)\" is not a suffix of metric \"\(name)\""
        case .invalidBuckets(let name): "histogram \"\(name)\" needs finite, non-negative, increasing bounds"
        case .invalidStates(let name): "state set \"\(name)\" needs 1...64 distinct states"
        }
    }
}
