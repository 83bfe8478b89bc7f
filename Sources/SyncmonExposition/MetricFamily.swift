/// A metric family's definition — name, help, type — checked once and rendered once into the bytes
/// every scrape copies: the `# HELP`/`# TYPE` header for each format, the sample names, the `le`
/// labels of a histogram and the state labels of a state set.
///
/// Families are meant to be created once, at startup, as constants. The static constructors
/// (``counter(_:help:unit:)``, ``gauge(_:help:unit:)``, ``histogram(_:help:buckets:unit:)``,
/// ``stateSet(_:help:label:states:)``, ``info(_:help:)``) trap on a bad definition, since names come
/// from code; ``init(name:help:kind:unit:)`` throws instead.
///
/// Beyond the name grammar, the checks enforce what `promtool check metrics` lints, so a mistake fails
/// the first test that builds the family instead of a CI lint run: counters end in `_total` and nothing
/// else does, `_bucket`/`_count`/`_sum` are left to histograms, `_timestamp_seconds` to gauges.
///
/// ## Types in each format
/// - Counters: text 0.0.4 names the `TYPE` after the full sample name (`syncmon_errors_total`);
///   OpenMetrics names the family without the suffix (`# TYPE syncmon_errors counter`) while samples
///   keep `_total`. Pass the name with `_total`.
/// - State sets are written as `gauge` in **both** formats. OpenMetrics' `stateset` type requires the
///   state label to be named after the family (`syncmon_status{syncmon_status="ok"}`), but docs/metrics.md
///   fixes the label names (`status`, `state`, `reason`) that alerts and dashboards select on. Renaming
///   them per format would change the series whenever the negotiated format changes; a gauge per
///   state with exactly one `1` is the stateset-as-gauge pattern node_exporter and kube-state-metrics
///   use, and text 0.0.4 (and promtool) know no `stateset` anyway.
/// - Info is written as `gauge` in both formats too: the series (`syncmon_build_info{…} 1`) is the
///   same either way, and one `TYPE` per series keeps the metadata Prometheus stores from flipping
///   with negotiation. OpenMetrics' `info` would also rename the family (`syncmon_build`).
/// - Units: given a `unit`, OpenMetrics gets a `# UNIT` line (it must be the family name's suffix);
///   text 0.0.4 has no such line.
public struct MetricFamily: Sendable {
    /// The name as given: for counters including `_total`; for histograms the base name.
    public let name: String
    /// The help text, unescaped.
    public let help: String
    /// The type, with its buckets or states.
    public let kind: MetricKind
    /// The OpenMetrics unit, such as `seconds`, if any.
    public let unit: String?

    /// The sample name for counters, gauges, state sets and info.
    let sampleName: [UInt8]
    /// `name_bucket`, `name_sum` and `name_count`; empty unless a histogram.
    let bucketName: [UInt8]
    let sumName: [UInt8]
    let countName: [UInt8]
    /// `le="…"` for each bound, then `le="+Inf"`; empty unless a histogram.
    let bucketLabels: [[UInt8]]
    /// `label="state"` for each state, in order; empty unless a state set.
    let stateLabels: [[UInt8]]
    /// `# HELP` and `# TYPE` lines for text 0.0.4.
    let textHeader: [UInt8]
    /// `# TYPE`, optional `# UNIT` and `# HELP` lines for OpenMetrics, in the order its spec suggests.
    let openMetricsHeader: [UInt8]

    /// Checks and renders a family definition.
    ///
    /// - Throws: ``MetricDefinitionError`` when the name, help, unit, buckets or states break a rule.
    public init(name: String, help: String, kind: MetricKind, unit: String? = nil) throws(MetricDefinitionError) {
        try MetricFamily.validate(name: name, help: help, kind: kind, unit: unit)
        self.name = name
        self.help = help
        self.kind = kind
        self.unit = unit
        self.sampleName = Array(name.utf8)

        var bucketLabels: [[UInt8]] = []
        var stateLabels: [[UInt8]] = []
        let textType: String
        let openMetricsType: String
        var openMetricsName = name
        switch kind {
        case .counter:
            textType = "counter"
            openMetricsType = "counter"
            openMetricsName = String(name.dropLast("_total".count))
        case .gauge, .info, .stateSet:
            textType = "gauge"
            openMetricsType = "gauge"
        case .histogram:
            textType = "histogram"
            openMetricsType = "histogram"
        }
        if case .histogram(let bounds) = kind {
            for bound in MetricFamily.finiteBounds(bounds) + [.infinity] {
                var label = Array("le=\"".utf8)
                NumberRendering.appendCanonical(bound, to: &label)
                label.append(UInt8(ascii: "\""))
                bucketLabels.append(label)
            }
            self.bucketName = Array((name + "_bucket").utf8)
            self.sumName = Array((name + "_sum").utf8)
            self.countName = Array((name + "_count").utf8)
        } else {
            self.bucketName = []
            self.sumName = []
            self.countName = []
        }
        if case .stateSet(let label, let states) = kind {
            stateLabels = states.map { LabelSet(label, $0).bytes }
        }
        self.bucketLabels = bucketLabels
        self.stateLabels = stateLabels

        var text: [UInt8] = []
        text.append(contentsOf: "# HELP \(name) ".utf8)
        Escaping.appendHelp(help, format: .prometheusText, to: &text)
        text.append(contentsOf: "\n# TYPE \(name) \(textType)\n".utf8)
        self.textHeader = text

        var openMetrics: [UInt8] = []
        openMetrics.append(contentsOf: "# TYPE \(openMetricsName) \(openMetricsType)\n".utf8)
        if let unit {
            openMetrics.append(contentsOf: "# UNIT \(openMetricsName) \(unit)\n".utf8)
        }
        openMetrics.append(contentsOf: "# HELP \(openMetricsName) ".utf8)
        Escaping.appendHelp(help, format: .openMetrics, to: &openMetrics)
        openMetrics.append(UInt8(ascii: "\n"))
        self.openMetricsHeader = openMetrics
    }

    /// The states of a state set, in order; empty for other kinds.
    public var states: [String] {
        if case .stateSet(_, let states) = self.kind { return states }
        return []
    }

    /// The position of `state` among a state set's states, for ``ExpositionWriter/stateSet(_:labels:extra:active:)``.
    public func stateIndex(_ state: String) -> Int? {
        self.states.firstIndex(of: state)
    }

    /// The header lines for `format`.
    func header(for format: ExpositionFormat) -> [UInt8] {
        switch format {
        case .prometheusText: self.textHeader
        case .openMetrics: self.openMetricsHeader
        }
    }

    /// Bounds with a trailing `+Inf` dropped: it is always added, so listing it must not duplicate it.
    static func finiteBounds(_ bounds: [Double]) -> [Double] {
        bounds.last == .infinity ? Array(bounds.dropLast()) : bounds
    }
}

extension MetricFamily {
    /// A counter; `name` ends in `_total`. Traps on a bad definition.
    public static func counter(_ name: String, help: String, unit: String? = nil) -> MetricFamily {
        self.make(name: name, help: help, kind: .counter, unit: unit)
    }

    /// A gauge. Traps on a bad definition.
    public static func gauge(_ name: String, help: String, unit: String? = nil) -> MetricFamily {
        self.make(name: name, help: help, kind: .gauge, unit: unit)
    }

    /// A histogram with these finite bucket bounds (`+Inf` is added). Traps on a bad definition.
    public static func histogram(_ name: String, help: String, buckets: [Double], unit: String? = nil) -> MetricFamily {
        self.make(name: name, help: help, kind: .histogram(buckets: buckets), unit: unit)
    }

    /// A state set whose state is named by the label `label`. Traps on a bad definition.
    public static func stateSet(_ name: String, help: String, label: String, states: [String]) -> MetricFamily {
        self.make(name: name, help: help, kind: .stateSet(label: label, states: states), unit: nil)
    }

    /// An info metric (constant 1 with textual labels), such as `syncmon_build_info`. Traps on a bad definition.
    public static func info(_ name: String, help: String) -> MetricFamily {
        self.make(name: name, help: help, kind: .info, unit: nil)
    }

    private static func make(name: String, help: String, kind: MetricKind, unit: String?) -> MetricFamily {
        do {
            return try MetricFamily(name: name, help: help, kind: kind, unit: unit)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
