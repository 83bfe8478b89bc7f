import SyncmonExposition
import Testing

/// Whole-output comparisons for each metric type in both formats.
@Suite("Golden exposition text")
struct GoldenTextTests {
    static let engine = LabelSet(["engine": "notes", "database": "private"])
    static let importPhase = LabelSet("phase", "import")

    @Test("counter, text 0.0.4: TYPE names the full _total name")
    func counterText() {
        let runs = MetricFamily.counter("syncmon_phase_runs_total", help: "Phase cycles started.")
        let output = render(.prometheusText) { writer in
            writer.family(runs)
            writer.sample(runs, labels: Self.engine, extra: Self.importPhase, value: 3 as UInt64)
            writer.sample(runs, value: 0)
        }
        #expect(
            output == """
                # HELP syncmon_phase_runs_total Phase cycles started.
                # TYPE syncmon_phase_runs_total counter
                syncmon_phase_runs_total{engine="notes",database="private",phase="import"} 3
                syncmon_phase_runs_total 0

                """
        )
    }

    @Test("counter, OpenMetrics: TYPE and HELP on the family name, samples keep _total, # EOF at the end")
    func counterOpenMetrics() {
        let cpu = MetricFamily.counter("process_cpu_seconds_total", help: "CPU time.", unit: "seconds")
        let output = render(.openMetrics) { writer in
            writer.family(cpu)
            writer.sample(cpu, value: 12.5)
        }
        #expect(
            output == """
                # TYPE process_cpu_seconds counter
                # UNIT process_cpu_seconds seconds
                # HELP process_cpu_seconds CPU time.
                process_cpu_seconds_total 12.5
                # EOF

                """
        )
    }

    @Test("gauge in both formats; UNIT only in OpenMetrics")
    func gauge() {
        let lastEvent = MetricFamily.gauge(
            "syncmon_engine_last_event_timestamp_seconds",
            help: "Unix time of the engine's last event.",
            unit: "seconds"
        )
        let body: (inout ExpositionWriter) -> Void = { writer in
            writer.family(lastEvent)
            writer.sample(lastEvent, labels: Self.engine, value: 1_717_171_717.25)
            writer.sample(lastEvent, labels: LabelSet(["engine": "mail", "database": "shared"]), value: 1_717_171_000)
        }
        #expect(
            render(.prometheusText, body) == """
                # HELP syncmon_engine_last_event_timestamp_seconds Unix time of the engine's last event.
                # TYPE syncmon_engine_last_event_timestamp_seconds gauge
                syncmon_engine_last_event_timestamp_seconds{engine="notes",database="private"} 1717171717.25
                syncmon_engine_last_event_timestamp_seconds{engine="mail",database="shared"} 1717171000

                """
        )
        #expect(
            render(.openMetrics, body) == """
                # TYPE syncmon_engine_last_event_timestamp_seconds gauge
                # UNIT syncmon_engine_last_event_timestamp_seconds seconds
                # HELP syncmon_engine_last_event_timestamp_seconds Unix time of the engine's last event.
                syncmon_engine_last_event_timestamp_seconds{engine="notes",database="private"} 1717171717.25
                syncmon_engine_last_event_timestamp_seconds{engine="mail",database="shared"} 1717171000
                # EOF

                """
        )
    }

    @Test("info is a gauge with value 1 in both formats")
    func info() {
        let build = MetricFamily.info("syncmon_build_info", help: "Build information.")
        let labels = LabelSet(["version": "1.2.0", "revision": "abc123"])
        let body: (inout ExpositionWriter) -> Void = { writer in
            writer.family(build)
            writer.sample(build, labels: labels, value: 1)
        }
        #expect(
            render(.prometheusText, body) == """
                # HELP syncmon_build_info Build information.
                # TYPE syncmon_build_info gauge
                syncmon_build_info{version="1.2.0",revision="abc123"} 1

                """
        )
        #expect(
            render(.openMetrics, body) == """
                # TYPE syncmon_build_info gauge
                # HELP syncmon_build_info Build information.
                syncmon_build_info{version="1.2.0",revision="abc123"} 1
                # EOF

                """
        )
    }

    @Test("enum state set: one gauge series per state, exactly one 1, label named by the caller")
    func stateSetEnum() {
        let phaseState = MetricFamily.stateSet(
            "syncmon_phase_state",
            help: "Current state of each phase.",
            label: "state",
            states: ["not_started", "in_progress", "succeeded", "failed"]
        )
        let body: (inout ExpositionWriter) -> Void = { writer in
            writer.family(phaseState)
            writer.stateSet(phaseState, labels: Self.engine, extra: Self.importPhase, active: 2)
        }
        #expect(
            render(.prometheusText, body) == """
                # HELP syncmon_phase_state Current state of each phase.
                # TYPE syncmon_phase_state gauge
                syncmon_phase_state{engine="notes",database="private",phase="import",state="not_started"} 0
                syncmon_phase_state{engine="notes",database="private",phase="import",state="in_progress"} 0
                syncmon_phase_state{engine="notes",database="private",phase="import",state="succeeded"} 1
                syncmon_phase_state{engine="notes",database="private",phase="import",state="failed"} 0

                """
        )
        #expect(
            render(.openMetrics, body) == """
                # TYPE syncmon_phase_state gauge
                # HELP syncmon_phase_state Current state of each phase.
                syncmon_phase_state{engine="notes",database="private",phase="import",state="not_started"} 0
                syncmon_phase_state{engine="notes",database="private",phase="import",state="in_progress"} 0
                syncmon_phase_state{engine="notes",database="private",phase="import",state="succeeded"} 1
                syncmon_phase_state{engine="notes",database="private",phase="import",state="failed"} 0
                # EOF

                """
        )
    }

    @Test("flag state set: each state 0/1 from a bit mask, no labels needed")
    func stateSetMask() {
        let stalled = MetricFamily.stateSet(
            "syncmon_stalled",
            help: "Stall detectors currently firing.",
            label: "reason",
            states: ["not_syncing", "no_progress", "pending_not_draining"]
        )
        let output = render(.prometheusText) { writer in
            writer.family(stalled)
            writer.stateSet(stalled, activeMask: 0b101)
        }
        #expect(
            output == """
                # HELP syncmon_stalled Stall detectors currently firing.
                # TYPE syncmon_stalled gauge
                syncmon_stalled{reason="not_syncing"} 1
                syncmon_stalled{reason="no_progress"} 0
                syncmon_stalled{reason="pending_not_draining"} 1

                """
        )
        #expect(stalled.stateIndex("no_progress") == 1)
        #expect(stalled.stateIndex("nope") == nil)
    }

    @Test("histogram: cumulative buckets with canonical le, +Inf equal to _count, then _sum and _count")
    func histogram() {
        let duration = MetricFamily.histogram(
            "syncmon_phase_duration_seconds",
            help: "Duration of completed phase cycles.",
            buckets: [0.25, 1, 10],
            unit: "seconds"
        )
        let body: (inout ExpositionWriter) -> Void = { writer in
            writer.family(duration)
            writer.histogram(
                duration,
                labels: Self.engine,
                extra: Self.importPhase,
                bucketCounts: [1, 2, 0, 1],
                sum: 14.5
            )
        }
        #expect(
            render(.prometheusText, body) == """
                # HELP syncmon_phase_duration_seconds Duration of completed phase cycles.
                # TYPE syncmon_phase_duration_seconds histogram
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="0.25"} 1
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="1.0"} 3
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="10.0"} 3
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="+Inf"} 4
                syncmon_phase_duration_seconds_sum{engine="notes",database="private",phase="import"} 14.5
                syncmon_phase_duration_seconds_count{engine="notes",database="private",phase="import"} 4

                """
        )
        #expect(
            render(.openMetrics, body) == """
                # TYPE syncmon_phase_duration_seconds histogram
                # UNIT syncmon_phase_duration_seconds seconds
                # HELP syncmon_phase_duration_seconds Duration of completed phase cycles.
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="0.25"} 1
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="1.0"} 3
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="10.0"} 3
                syncmon_phase_duration_seconds_bucket{engine="notes",database="private",phase="import",le="+Inf"} 4
                syncmon_phase_duration_seconds_sum{engine="notes",database="private",phase="import"} 14.5
                syncmon_phase_duration_seconds_count{engine="notes",database="private",phase="import"} 4
                # EOF

                """
        )
    }

    @Test("unlabelled histogram: le is the only label")
    func histogramWithoutLabels() {
        let latency = MetricFamily.histogram("syncmon_apply_seconds", help: "Apply time.", buckets: [0.5])
        let output = render(.prometheusText) { writer in
            writer.family(latency)
            writer.histogram(latency, bucketCounts: [0, 0], sum: 0)
        }
        #expect(
            output == """
                # HELP syncmon_apply_seconds Apply time.
                # TYPE syncmon_apply_seconds histogram
                syncmon_apply_seconds_bucket{le="0.5"} 0
                syncmon_apply_seconds_bucket{le="+Inf"} 0
                syncmon_apply_seconds_sum 0
                syncmon_apply_seconds_count 0

                """
        )
    }

    @Test("a family with no series still gets its header; an empty OpenMetrics exposition is just # EOF")
    func emptyFamilies() {
        let tracked = MetricFamily.gauge("syncmon_tracked_engines", help: "Engines tracked.")
        #expect(
            render(.prometheusText) { $0.family(tracked) } == """
                # HELP syncmon_tracked_engines Engines tracked.
                # TYPE syncmon_tracked_engines gauge

                """
        )
        #expect(render(.openMetrics) { _ in } == "# EOF\n")
        #expect(render(.prometheusText) { _ in } == "")
    }

    @Test("special values are spelled NaN, +Inf, -Inf in both formats")
    func specialValues() {
        let ratio = MetricFamily.gauge("syncmon_ratio", help: "A ratio.")
        let output = render(.openMetrics) { writer in
            writer.family(ratio)
            writer.sample(ratio, labels: LabelSet("case", "nan"), value: .nan)
            writer.sample(ratio, labels: LabelSet("case", "inf"), value: .infinity)
            writer.sample(ratio, labels: LabelSet("case", "neg"), value: -.infinity)
        }
        #expect(
            output == """
                # TYPE syncmon_ratio gauge
                # HELP syncmon_ratio A ratio.
                syncmon_ratio{case="nan"} NaN
                syncmon_ratio{case="inf"} +Inf
                syncmon_ratio{case="neg"} -Inf
                # EOF

                """
        )
    }

    @Test("byteCount tracks the buffer")
    func byteCount() {
        let up = MetricFamily.gauge("syncmon_engine_up", help: "Up.")
        var writer = ExpositionWriter(format: .prometheusText)
        #expect(writer.byteCount == 0)
        writer.family(up)
        writer.sample(up, value: 1)
        let count = writer.byteCount
        #expect(writer.finish().count == count)
    }
}
