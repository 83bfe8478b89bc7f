extension MetricFamily {
    /// Checks a definition against the name grammar, the OpenMetrics rules we rely on, and the suffix
    /// rules `promtool check metrics` lints.
    static func validate(name: String, help: String, kind: MetricKind, unit: String?) throws(MetricDefinitionError) {
        guard ExpositionNames.isValidMetricName(name) else { throw .invalidMetricName(name) }
        guard !help.isEmpty else { throw .emptyHelp(name) }

        // promtool: "counter metrics should have _total suffix" and the reverse for other types.
        if kind == .counter {
            guard name.hasSuffix("_total"), name.count > "_total".count else {
                throw .namingRule(name: name, reason: "a counter's name must end in _total")
            }
        } else if name.hasSuffix("_total") {
            throw .namingRule(name: name, reason: "only counters may end in _total")
        }
        // promtool reserves these for histograms and summaries; a histogram's own name must not carry
        // them either, or its sample names would read `…_count_bucket`.
        for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) {
            throw .namingRule(name: name, reason: "\(suffix) is reserved for histogram samples")
        }
        // OpenMetrics: a counter `foo` may expose `foo_created`, so no family may be named like that.
        if name.hasSuffix("_created") {
            throw .namingRule(name: name, reason: "_created is reserved for counter samples")
        }
        // promtool: "non-gauge metrics should not have _timestamp_seconds suffix".
        if name.hasSuffix("_timestamp_seconds"), kind != .gauge {
            throw .namingRule(name: name, reason: "only gauges may end in _timestamp_seconds")
        }

        // promtool: "metric name should not include type '…'" — for any type, not just its own, as a
        // whole `_word` inside or at the end of the name. No exceptions: `promtool check metrics`
        // must find nothing at all (docs/metrics.md#promtool), which is why the status family is
        // `syncmon_status` and no longer `syncmon_summary`.
        let lowercased = name.lowercased()
        for typeName in ["counter", "gauge", "histogram", "summary"]
        where lowercased.contains("_\(typeName)_") || lowercased.hasSuffix("_\(typeName)") {
            throw .namingRule(name: name, reason: "promtool refuses type names in metric names (\(typeName))")
        }

        if let unit {
            let familyName = kind == .counter ? String(name.dropLast("_total".count)) : name
            let unitIsValid = ExpositionNames.isValidMetricName(unit) && familyName.hasSuffix("_" + unit)
            // OpenMetrics: state sets and info have an empty unit.
            guard unitIsValid, kind != .info, !kind.isStateSet else {
                throw .invalidUnit(name: name, unit: unit)
            }
        }

        switch kind {
        case .histogram(let buckets):
            let bounds = MetricFamily.finiteBounds(buckets)
            // Negative bounds would oblige OpenMetrics to drop `_sum`, which we always write.
            guard bounds.allSatisfy({ $0.isFinite && $0 >= 0 }),
                zip(bounds, bounds.dropFirst()).allSatisfy({ $0 < $1 })
            else {
                throw .invalidBuckets(name: name)
            }
        case .stateSet(let label, let states):
            guard ExpositionNames.isValidLabelName(label) else { throw .invalidLabelName(label) }
            // 64 states fit the `activeMask` of a flag-style state set.
            guard (1...64).contains(states.count), Set(states).count == states.count else {
                throw .invalidStates(name: name)
            }
        case .counter, .gauge, .info:
            break
        }
    }
}

extension MetricKind {
    /// Whether this is a state set, whatever its label and states.
    var isStateSet: Bool {
        if case .stateSet = self { return true }
        return false
    }
}
