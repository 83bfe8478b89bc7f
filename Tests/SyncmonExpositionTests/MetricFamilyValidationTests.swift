import Foundation
import SyncmonExposition
import Testing

/// The rules a family or label set must pass before anything is written.
@Suite("Definition checks")
struct MetricFamilyValidationTests {
    @Test(
        "metric names",
        arguments: [
            ("syncmon_engine_up", true), ("a", true), ("A9_b", true), ("process_cpu_seconds_total", true),
            ("", false), ("9lives", false), ("_private", false), ("__name", false), ("has-dash", false),
            ("has space", false), ("rule:recorded", false), ("ünï", false), ("syncmon.up", false),
        ]
    )
    func metricNames(_ name: String, _ valid: Bool) {
        #expect(ExpositionNames.isValidMetricName(name) == valid)
    }

    @Test(
        "label names",
        arguments: [
            ("engine", true), ("database", true), ("status", true), ("a_1", true),
            ("", false), ("1a", false), ("_x", false), ("__name__", false), ("le", false), ("quantile", false),
            ("a-b", false), ("a:b", false),
        ]
    )
    func labelNames(_ name: String, _ valid: Bool) {
        #expect(ExpositionNames.isValidLabelName(name) == valid)
    }

    /// A definition that must be refused, with the error it must produce.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: MetricKind
        var help = "Help."
        var unit: String? = nil
        let error: MetricDefinitionError
        var testDescription: String { "\(self.name): \(self.error)" }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "bad-name", kind: .gauge, error: .invalidMetricName("bad-name")),
        Refusal(name: "syncmon_x", kind: .gauge, help: "", error: .emptyHelp("syncmon_x")),
        Refusal(
            name: "syncmon_events",
            kind: .counter,
            error: .namingRule(name: "syncmon_events", reason: "a counter's name must end in _total")
        ),
        Refusal(
            name: "_total",
            kind: .counter,
            error: .invalidMetricName("_total")
        ),
        Refusal(
            name: "syncmon_events_total",
            kind: .gauge,
            error: .namingRule(name: "syncmon_events_total", reason: "only counters may end in _total")
        ),
        Refusal(
            name: "syncmon_requests_count",
            kind: .gauge,
            error: .namingRule(name: "syncmon_requests_count", reason: "_count is reserved for histogram samples")
        ),
        Refusal(
            name: "syncmon_latency_bucket",
            kind: .histogram(buckets: [1]),
            error: .namingRule(name: "syncmon_latency_bucket", reason: "_bucket is reserved for histogram samples")
        ),
        Refusal(
            name: "syncmon_x_created",
            kind: .gauge,
            error: .namingRule(name: "syncmon_x_created", reason: "_created is reserved for counter samples")
        ),
        Refusal(
            name: "syncmon_last_timestamp_seconds",
            kind: .histogram(buckets: [1]),
            error: .namingRule(
                name: "syncmon_last_timestamp_seconds",
                reason: "only gauges may end in _timestamp_seconds"
            )
        ),
        Refusal(
            name: "syncmon_queue_summary",
            kind: .stateSet(label: "status", states: ["ok"]),
            error: .namingRule(
                name: "syncmon_queue_summary",
                reason: "promtool refuses type names in metric names (summary)"
            )
        ),
        // The v1.0 name of the status family: no longer an exception to the lint.
        Refusal(
            name: "syncmon_summary",
            kind: .stateSet(label: "status", states: ["ok"]),
            error: .namingRule(
                name: "syncmon_summary",
                reason: "promtool refuses type names in metric names (summary)"
            )
        ),
        Refusal(
            name: "syncmon_gauge_value",
            kind: .gauge,
            error: .namingRule(
                name: "syncmon_gauge_value",
                reason: "promtool refuses type names in metric names (gauge)"
            )
        ),
        Refusal(
            name: "syncmon_duration_seconds",
            kind: .gauge,
            unit: "bytes",
            error: .invalidUnit(name: "syncmon_duration_seconds", unit: "bytes")
        ),
        Refusal(
            name: "syncmon_status",
            kind: .stateSet(label: "status", states: ["a"]),
            unit: "status",
            error: .invalidUnit(name: "syncmon_status", unit: "status")
        ),
        Refusal(
            name: "syncmon_d_seconds",
            kind: .histogram(buckets: [1, 0.5]),
            error: .invalidBuckets(name: "syncmon_d_seconds")
        ),
        Refusal(
            name: "syncmon_d_seconds",
            kind: .histogram(buckets: [1, 1]),
            error: .invalidBuckets(name: "syncmon_d_seconds")
        ),
        Refusal(
            name: "syncmon_d_seconds",
            kind: .histogram(buckets: [-1, 1]),
            error: .invalidBuckets(name: "syncmon_d_seconds")
        ),
        Refusal(
            name: "syncmon_d_seconds",
            kind: .histogram(buckets: [.nan]),
            error: .invalidBuckets(name: "syncmon_d_seconds")
        ),
        Refusal(
            name: "syncmon_s",
            kind: .stateSet(label: "le", states: ["a"]),
            error: .invalidLabelName("le")
        ),
        Refusal(
            name: "syncmon_s",
            kind: .stateSet(label: "status", states: []),
            error: .invalidStates(name: "syncmon_s")
        ),
        Refusal(
            name: "syncmon_s",
            kind: .stateSet(label: "status", states: ["a", "a"]),
            error: .invalidStates(name: "syncmon_s")
        ),
        Refusal(
            name: "syncmon_s",
            kind: .stateSet(label: "status", states: (0...64).map { "s\($0)" }),
            error: .invalidStates(name: "syncmon_s")
        ),
    ]

    @Test("refused definitions", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(throws: refusal.error) {
            try MetricFamily(name: refusal.name, help: refusal.help, kind: refusal.kind, unit: refusal.unit)
        }
    }

    @Test("accepted definitions, including a counter unit and a trailing +Inf bound")
    func accepted() throws {
        _ = try MetricFamily(name: "process_cpu_seconds_total", help: "CPU.", kind: .counter, unit: "seconds")
        let histogram = try MetricFamily(
            name: "syncmon_d_seconds",
            help: "D.",
            kind: .histogram(buckets: [0, 1, .infinity])
        )
        let output = render(.prometheusText) { writer in
            writer.family(histogram)
            writer.histogram(histogram, bucketCounts: [0, 1, 2], sum: 3)
        }
        #expect(output.components(separatedBy: "le=\"+Inf\"").count == 2, "exactly one +Inf bucket")
        #expect(output.contains(#"le="0.0"} 0"#))
        _ = try MetricFamily(
            name: "syncmon_s",
            help: "S.",
            kind: .stateSet(label: "status", states: (0..<64).map { "s\($0)" })
        )
    }

    @Test("label sets refuse bad and repeated names")
    func labelSetRefusals() {
        #expect(throws: MetricDefinitionError.invalidLabelName("bad-name")) {
            try LabelSet(validating: [("bad-name", "x")])
        }
        #expect(throws: MetricDefinitionError.duplicateLabelName("engine")) {
            try LabelSet(validating: [("engine", "a"), ("engine", "b")])
        }
        #expect(throws: MetricDefinitionError.invalidLabelName("le")) {
            try LabelSet(validating: [("le", "1")])
        }
    }

    @Test("the trapping constructors crash on a bad definition")
    func trapping() async {
        await #expect(processExitsWith: .failure) {
            _ = MetricFamily.counter("syncmon_events", help: "No _total.")
        }
        await #expect(processExitsWith: .failure) {
            _ = LabelSet("bad-name", "x")
        }
    }
}
