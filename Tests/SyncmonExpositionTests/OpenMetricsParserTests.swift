import SyncmonExposition
import SyncmonTestSupport
import Testing

/// Cross-checks OpenMetrics output with a strict third-party parser: the reference Python client's
/// (Debian `python3-prometheus-client`), which enforces the spec's structure — `# EOF`, family and
/// sample naming, canonical `le`, cumulative buckets with `+Inf` equal to `_count`.
///
/// promtool cannot do this (it reads only text 0.0.4), so this is the only OpenMetrics check of
/// the writer's output (scripts/test-deploy.sh also parses a live daemon's). It is skipped where
/// the package is not installed, except under CI (`scripts/install-deps.sh --test` installs it),
/// where a missing parser fails.
@Suite(
    "OpenMetrics reference parser",
    .enabled(
        if: ExternalTool.isCI || ExternalTool.openMetricsParserAvailable,
        "python3-prometheus-client not installed (apt-get install python3-prometheus-client); set CI=1 to make this a failure"
    )
)
struct OpenMetricsParserTests {
    static let python = ExternalTool.python

    /// Fails (under CI, where the suite is never skipped) when the parser cannot be imported.
    init() throws {
        try #require(
            ExternalTool.openMetricsParserAvailable,
            "/usr/bin/python3 cannot import prometheus_client: apt-get install -y python3-prometheus-client"
        )
    }

    /// Parses stdin strictly and prints each family as `name type samples`, or fails with the error.
    static let script = """
        import sys
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
        for family in text_string_to_metric_families(sys.stdin.read()):
            print(family.name, family.type, len(family.samples))
        """

    @Test("a realistic OpenMetrics exposition parses, with the families and types we intend")
    func realisticExpositionParses() async throws {
        let sample = SampleExposition(engineCount: 25)
        let result = try await Self.python.run(["-c", Self.script], input: sample.render(.openMetrics))
        #expect(result.status == 0, "\(result.errors)")
        let families = result.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let types = Dictionary(uniqueKeysWithValues: families.map { ($0[0], $0[1]) })
        #expect(types["syncmon_phase_runs"] == "counter")
        #expect(types["syncmon_phase_duration_seconds"] == "histogram")
        #expect(types["syncmon_status"] == "gauge")
        #expect(types["syncmon_build_info"] == "gauge")
        #expect(types["process_cpu_seconds"] == "counter")
        #expect(families.count == 28)
    }

    @Test("the parser rejects an exposition without # EOF, proving the check can fail")
    func missingEOFFails() async throws {
        var exposition = SampleExposition(engineCount: 1).render(.openMetrics)
        exposition.removeLast("# EOF\n".utf8.count)
        let result = try await Self.python.run(["-c", Self.script], input: exposition)
        #expect(result.status != 0)
    }
}
