import SyncmonExposition
import SyncmonTestSupport
import Testing

/// The exposition's acceptance check (docs/metrics.md#promtool): `promtool check metrics` must exit 0 and print nothing.
///
/// promtool parses only text 0.0.4, so OpenMetrics output is checked by ``OpenMetricsParserTests``.
@Suite(
    "promtool check metrics",
    .enabled(
        if: ExternalTool.promtoolTestsEnabled,
        "promtool not found at /usr/bin/promtool (apt-get install prometheus); set CI=1 to make this a failure"
    )
)
struct PromtoolTests {
    /// Fails (under CI, where the suite is never skipped) when promtool is missing.
    func promtool() throws -> ExternalTool {
        let tool = ExternalTool.promtool
        try #require(tool.isAvailable, "promtool is required when CI is set: apt-get install -y prometheus")
        return tool
    }

    @Test("a realistic exposition passes with no findings")
    func realisticExpositionPasses() async throws {
        let exposition = SampleExposition(engineCount: 25).render(.prometheusText)
        let result = try await self.promtool().run(["check", "metrics"], input: exposition)
        #expect(result.status == 0, "\(result.combined)")
        #expect(result.combined.isEmpty, "promtool printed: \(result.combined)")
    }

    @Test("every family type on its own passes, including unlabelled and empty families")
    func singleFamiliesPass() async throws {
        let tool = try self.promtool()
        let outputs: [String] = [
            render(.prometheusText) { writer in
                writer.family(SyncmonFamilies.trackedEngines)
                writer.sample(SyncmonFamilies.trackedEngines, value: 0)
            },
            render(.prometheusText) { writer in
                writer.family(SyncmonFamilies.phaseDuration)
                writer.histogram(SyncmonFamilies.phaseDuration, bucketCounts: Array(repeating: 0, count: 13), sum: 0)
            },
            render(.prometheusText) { writer in
                writer.family(SyncmonFamilies.eventsRejected)
            },
        ]
        for output in outputs {
            let result = try await tool.run(["check", "metrics"], input: Array(output.utf8))
            #expect(result.status == 0 && result.combined.isEmpty, "\(output)\n->\n\(result.combined)")
        }
    }

    /// Expositions promtool must reject, proving the check can fail at all.
    @Test(
        "promtool flags bad expositions",
        arguments: [
            // Lint (exit 3): a counter without _total and a gauge without help.
            ("# HELP syncmon_events Events.\n# TYPE syncmon_events counter\nsyncmon_events 1\n", Int32(3), "_total"),
            ("# TYPE syncmon_up gauge\nsyncmon_up 1\n", 3, "no help text"),
            // Parse errors (exit 1): an unescaped quote in a label value, a \" in text 0.0.4 help.
            ("# HELP syncmon_up Up.\n# TYPE syncmon_up gauge\nsyncmon_up{engine=\"a\"b\"} 1\n", 1, ""),
            ("# HELP syncmon_up A \\\"q\\\".\n# TYPE syncmon_up gauge\nsyncmon_up 1\n", 1, "escape"),
            // syncmon's v1.0 name for the status family: promtool lints type names inside metric names.
            (
                "# HELP syncmon_summary S.\n# TYPE syncmon_summary gauge\nsyncmon_summary{status=\"ok\"} 1\n",
                3,
                "type 'summary'"
            ),
            // An OpenMetrics-only type.
            ("# HELP syncmon_s S.\n# TYPE syncmon_s stateset\nsyncmon_s{syncmon_s=\"a\"} 1\n", 1, ""),
        ]
    )
    func badExpositionsFail(_ exposition: String, _ expectedStatus: Int32, _ expectedMessage: String) async throws {
        let result = try await self.promtool().run(["check", "metrics"], input: Array(exposition.utf8))
        #expect(result.status == expectedStatus, "\(result.combined)")
        #expect(!result.combined.isEmpty)
        #expect(result.combined.contains(expectedMessage), "\(result.combined)")
    }
}
