import SyncmonCore
import SyncmonDaemon
import SyncmonExposition
import SyncmonTestSupport
import Testing

/// `MetricsRenderer`: the `/metrics` exposition of a monitor fed with real events (docs/metrics.md).
@Suite("Metrics renderer")
struct MetricsRendererTests {
    /// Every docs/metrics.md family (bar `process_*`) and its `# TYPE` in text 0.0.4.
    static let families: [(name: String, type: String, perEngine: Bool)] = [
        ("syncmon_build_info", "gauge", false),
        ("syncmon_status", "gauge", true),
        ("syncmon_phase_state", "gauge", true),
        ("syncmon_phase_last_start_timestamp_seconds", "gauge", true),
        ("syncmon_phase_last_success_timestamp_seconds", "gauge", true),
        ("syncmon_phase_duration_seconds", "histogram", true),
        ("syncmon_phase_runs_total", "counter", true),
        ("syncmon_phase_failures_total", "counter", true),
        ("syncmon_stalled", "gauge", true),
        ("syncmon_account_status", "gauge", true),
        ("syncmon_network_status", "gauge", true),
        ("syncmon_throttled_until_timestamp_seconds", "gauge", true),
        ("syncmon_pending_changes", "gauge", true),
        ("syncmon_errors_total", "counter", true),
        ("syncmon_records_fetched_total", "counter", true),
        ("syncmon_records_sent_total", "counter", true),
        ("syncmon_account_changes_total", "counter", true),
        ("syncmon_engine_up", "gauge", true),
        ("syncmon_engine_last_event_timestamp_seconds", "gauge", true),
        ("syncmon_events_received_total", "counter", false),
        ("syncmon_events_rejected_total", "counter", false),
        ("syncmon_tracked_engines", "gauge", false),
        ("syncmon_host_network_up", "gauge", false),
        ("syncmon_source_up", "gauge", false),
        ("syncmon_source_reconnects_total", "counter", false),
        ("syncmon_unit_restarts_total", "counter", false),
        ("syncmon_rules_reload_failures_total", "counter", false),
        ("process_resident_memory_bytes", "gauge", false),
        ("process_cpu_seconds_total", "counter", false),
        ("process_start_time_seconds", "gauge", false),
        ("process_open_fds", "gauge", false),
    ]

    static let renderer = MetricsRenderer(version: "1.2.3", revision: "abc123")
    static let now = at(20)

    /// The realistic monitor plus one idle engine and a few rejected lines.
    static func monitor() -> Monitor {
        var monitor = makeMonitor(realisticSteps + [(10, line("idle", "heartbeat"))])
        monitor.count(Rejection(.malformed))
        monitor.count(Rejection(.malformed))
        monitor.count(Rejection(.tooLarge))
        return monitor
    }

    static func render(_ format: ExpositionFormat = .prometheusText, monitor: Monitor = monitor(), now: Timestamp = now) -> String {
        var process = ProcessMetrics()
        process.residentMemoryBytes = 1_000_000
        process.cpuSeconds = 1.5
        process.startTimeSeconds = 1_795_262_000
        process.openFileDescriptors = 12
        let bytes = self.renderer.render(monitor: monitor, received: [17, 0], process: process, format: format, now: now)
        return String(decoding: bytes, as: UTF8.self)
    }

    let text = Self.render()
    var metrics: MetricsText { get throws { try MetricsText(self.text) } }

    @Test("every documented family has HELP and TYPE", arguments: Self.families)
    func familyPresent(family: (name: String, type: String, perEngine: Bool)) throws {
        let metrics = try self.metrics
        #expect(metrics.types[family.name] == family.type, "TYPE of \(family.name)")
        #expect(!(metrics.help[family.name] ?? "").isEmpty, "HELP of \(family.name)")
    }

    @Test("no sample carries a timestamp, and every value is a number")
    func noTimestamps() throws {
        let metrics = try self.metrics
        #expect(!metrics.samples.isEmpty)
        for sample in metrics.samples {
            #expect(sample.timestamp == nil, "\(sample)")
            #expect(sample.number != nil, "\(sample)")
        }
    }

    @Test("each family's samples are contiguous, after its TYPE")
    func familiesContiguous() throws {
        var seen: [String] = []
        var current: String?
        for rawLine in self.text.split(separator: "\n") where !rawLine.hasPrefix("#") {
            let name = String(rawLine.prefix { $0 != "{" && $0 != " " })
            let family = ["_bucket", "_sum", "_count"].reduce(name) { name, suffix in
                name.hasSuffix(suffix) && name.hasPrefix("syncmon_phase_duration") ? String(name.dropLast(suffix.count)) : name
            }
            if family != current {
                #expect(!seen.contains(family), "\(family) appears twice")
                seen.append(family)
                current = family
            }
        }
    }

    @Test("every per-engine sample has engine and database labels", arguments: Self.families.filter(\.perEngine).map(\.name))
    func perEngineLabels(family: String) throws {
        let metrics = try self.metrics
        let samples = metrics.samples.filter { $0.name == family || $0.name.hasPrefix(family + "_") }
        #expect(!samples.isEmpty || family == "syncmon_phase_last_success_timestamp_seconds")
        for sample in samples {
            #expect(sample.labels["engine"] != nil && sample.labels["database"] != nil, "\(sample)")
        }
        // Every pair is there (families written per pair).
        if ["syncmon_status", "syncmon_engine_up", "syncmon_stalled", "syncmon_account_status"].contains(family) {
            let pairs = Set(samples.map { "\($0.labels["engine"]!)/\($0.labels["database"]!)" })
            #expect(pairs == ["notes/private", "photos/shared", "idle/private"])
        }
    }

    @Test(
        "state sets are complete with exactly one 1",
        arguments: [
            ("syncmon_status", "status", Summary.allCases.map(\.description), false),
            ("syncmon_account_status", "status", AccountStatus.allCases.map(\.description), false),
            ("syncmon_network_status", "status", NetworkStatus.allCases.map(\.description), false),
            ("syncmon_phase_state", "state", ["not_started", "in_progress", "succeeded", "failed"], true),
        ])
    func stateSets(family: String, label: String, states: [String], perPhase: Bool) throws {
        let metrics = try self.metrics
        for pair in [("notes", "private"), ("photos", "shared"), ("idle", "private")] {
            for phase in perPhase ? ["setup", "import", "export"] : [nil] {
                var labels = ["engine": pair.0, "database": pair.1]
                if let phase { labels["phase"] = phase }
                let samples = metrics.samples(family, labels)
                #expect(samples.map { $0.labels[label]! }.sorted() == states.sorted(), "\(family) \(labels)")
                #expect(samples.filter { $0.value == "1" }.count == 1, "\(family) \(labels): \(samples)")
                #expect(samples.allSatisfy { $0.value == "0" || $0.value == "1" })
            }
        }
    }

    @Test("the state sets say what happened")
    func stateSetValues() throws {
        let metrics = try self.metrics
        let notes = ["engine": "notes", "database": "private"]
        let photos = ["engine": "photos", "database": "shared"]
        #expect(metrics.value("syncmon_status", notes.merging(["status": "succeeded"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_status", photos.merging(["status": "error"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_status", ["engine": "idle", "status": "not_started"]) == 1)
        #expect(metrics.value("syncmon_phase_state", photos.merging(["phase": "export", "state": "failed"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_phase_state", notes.merging(["phase": "import", "state": "succeeded"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_network_status", notes.merging(["status": "available"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_network_status", photos.merging(["status": "unknown"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_account_status", photos.merging(["status": "available"]) { $1 }) == 1)
    }

    @Test("syncmon_stalled has one 0/1 series per reason and pair")
    func stalled() throws {
        let metrics = try self.metrics
        let samples = metrics.samples("syncmon_stalled", ["engine": "notes"])
        #expect(samples.map { $0.labels["reason"]! }.sorted() == StallReason.allCases.map(\.description).sorted())
        #expect(samples.allSatisfy { $0.value == "0" })
        #expect(metrics.value("syncmon_stalled", ["engine": "photos", "reason": "not_syncing"]) == 0)
        // photos' setup succeeded at 1 s and no import ever started; its throttle ended at 63 s, so
        // not_syncing (60 s default) fires at 123 s. The summary stays `error`, which ranks higher.
        let later = try MetricsText(Self.render(now: at(123)))
        #expect(later.value("syncmon_stalled", ["engine": "photos", "reason": "not_syncing"]) == 1)
        #expect(later.samples("syncmon_stalled", ["engine": "photos"]).filter { $0.value == "1" }.count == 1)
        #expect(later.value("syncmon_status", ["engine": "photos", "status": "error"]) == 1)
        let earlier = try MetricsText(Self.render(now: at(122)))
        #expect(earlier.value("syncmon_stalled", ["engine": "photos", "reason": "not_syncing"]) == 0)
    }

    @Test("syncmon_errors_total is labelled by phase, class and bounded code")
    func errors() throws {
        let metrics = try self.metrics
        let samples = metrics.samples("syncmon_errors_total")
        for sample in samples {
            #expect(Set(sample.labels.keys) == ["engine", "database", "phase", "class", "code"], "\(sample)")
            #expect(["transient", "conflict", "actionable"].contains(sample.labels["class"]!), "\(sample)")
        }
        let photos = ["engine": "photos", "database": "shared"]
        #expect(metrics.value("syncmon_errors_total", photos.merging(["phase": "export", "class": "actionable", "code": "quotaExceeded"]) { $1 }) == 1)
        #expect(metrics.value("syncmon_errors_total", photos.merging(["phase": "export", "class": "transient", "code": "networkFailure"]) { $1 }) == 1)
        // An unknown code is grouped as `other` (and classed actionable); an error event without a phase has none.
        let other = metrics.samples("syncmon_errors_total", photos.merging(["code": "other"]) { $1 })
        #expect(other.count == 1)
        #expect(other.first?.labels["class"] == "actionable")
        #expect(!self.text.contains("someVendorCode"))
        #expect(metrics.value("syncmon_errors_total", ["engine": "notes", "phase": "export", "class": "conflict", "code": "serverRecordChanged"]) == 1)
    }

    @Test(
        "each phase's last start and last success are its own tracker's",
        arguments: ["syncmon_phase_last_start_timestamp_seconds", "syncmon_phase_last_success_timestamp_seconds"])
    func phaseTimes(family: String) throws {
        let time: KeyPath<PhaseTracker, Timestamp?> = family.contains("start") ? \.lastStart : \.lastSuccess
        let metrics = try self.metrics
        let monitor = Self.monitor()
        var phasesWithTimes = Set<Phase>()
        for position in monitor.pairs.indices {
            let (key, state) = monitor.pairs[position]
            for phase in Phase.allCases {
                let labels = ["engine": key.engine.description, "database": key.database.description, "phase": phase.description]
                let expected = state[phase][keyPath: time].map { Double($0.microseconds) / 1_000_000 }
                #expect(metrics.value(family, labels) == expected, "\(key) \(phase)")
                if expected != nil { phasesWithTimes.insert(phase) }
            }
        }
        // The monitor gives more than one phase a time, so a phase read for another would show.
        #expect(phasesWithTimes.count >= 2, "\(phasesWithTimes)")
    }

    @Test("counters and gauges carry the events' numbers")
    func values() throws {
        let metrics = try self.metrics
        let notes = ["engine": "notes", "database": "private"]
        func value(_ name: String, _ extra: [String: String] = [:]) -> Double? {
            metrics.value(name, notes.merging(extra) { $1 })
        }
        #expect(value("syncmon_records_fetched_total", ["change": "modification"]) == 12)
        #expect(value("syncmon_records_fetched_total", ["change": "deletion"]) == 2)
        #expect(value("syncmon_records_sent_total", ["op": "save"]) == 3)
        #expect(value("syncmon_records_sent_total", ["op": "delete"]) == 1)
        #expect(value("syncmon_account_changes_total", ["change": "sign_in"]) == 1)
        #expect(value("syncmon_account_changes_total", ["change": "sign_out"]) == 0)
        #expect(value("syncmon_account_changes_total", ["change": "switch_accounts"]) == 0)
        // signIn clears pending changes, as CKSyncEngine does.
        #expect(value("syncmon_pending_changes", ["kind": "record_zone"]) == 0)
        #expect(value("syncmon_pending_changes", ["kind": "database"]) == 0)
        #expect(value("syncmon_phase_runs_total", ["phase": "import"]) == 1)
        #expect(value("syncmon_phase_failures_total", ["phase": "import"]) == 0)
        #expect(metrics.value("syncmon_phase_failures_total", ["engine": "photos", "phase": "export"]) == 1)
        #expect(value("syncmon_phase_last_start_timestamp_seconds", ["phase": "import"]) == Double(baseSeconds + 2))
        #expect(value("syncmon_phase_last_success_timestamp_seconds", ["phase": "import"]) == Double(baseSeconds + 4))
        #expect(value("syncmon_phase_duration_seconds_count", ["phase": "import"]) == 1)
        #expect(value("syncmon_phase_duration_seconds_sum", ["phase": "import"]) == 2)
        #expect(value("syncmon_phase_duration_seconds_bucket", ["phase": "import", "le": "+Inf"]) == 1)
        #expect(value("syncmon_engine_up") == 1)
        #expect(value("syncmon_engine_last_event_timestamp_seconds") == Double(baseSeconds + 9))
        #expect(metrics.value("syncmon_throttled_until_timestamp_seconds", ["engine": "photos"]) == Double(baseSeconds + 63))
        #expect(value("syncmon_throttled_until_timestamp_seconds") == 0)
        #expect(metrics.value("syncmon_tracked_engines") == 3)
        #expect(metrics.value("syncmon_events_received_total", ["transport": "push"]) == 17)
        #expect(metrics.value("syncmon_events_rejected_total", ["reason": "malformed"]) == 2)
        #expect(metrics.value("syncmon_events_rejected_total", ["reason": "too_large"]) == 1)
        #expect(metrics.value("syncmon_events_rejected_total", ["reason": "engine_limit"]) == 0)
        #expect(metrics.samples("syncmon_events_rejected_total").count == RejectionReason.allCases.count)
        #expect(metrics.value("syncmon_build_info", ["version": "1.2.3", "revision": "abc123"]) == 1)
        #expect(metrics.value("process_open_fds") == 12)
        #expect(metrics.value("process_cpu_seconds_total") == 1.5)
    }

    @Test("histogram buckets are cumulative and end at +Inf")
    func histogram() throws {
        let metrics = try self.metrics
        let buckets = metrics.samples("syncmon_phase_duration_seconds_bucket", ["engine": "notes", "phase": "import"])
        #expect(buckets.last?.labels["le"] == "+Inf")
        let values = buckets.compactMap(\.number)
        #expect(values == values.sorted())
    }

    @Test("an empty monitor still renders every unlabelled family")
    func empty() throws {
        let metrics = try MetricsText(Self.render(monitor: Monitor()))
        #expect(metrics.value("syncmon_tracked_engines") == 0)
        #expect(metrics.samples("syncmon_status").isEmpty)
        for family in Self.families { #expect(metrics.types[family.name] != nil, "\(family.name)") }
    }

    @Test(
        "syncmon_host_network_up: 1 online, 0 offline, no sample while the host is not followed; silent pairs take the view",
        arguments: [(NetworkStatus.available, 1.0 as Double?), (.unavailable, 0), (.unknown, nil)]
    )
    func hostNetwork(status: NetworkStatus, expected: Double?) throws {
        var monitor = Self.monitor()
        _ = monitor.setHostNetwork(status, at: Self.now)
        let metrics = try MetricsText(Self.render(monitor: monitor))
        #expect(metrics.types["syncmon_host_network_up"] == "gauge")
        #expect(metrics.value("syncmon_host_network_up") == expected)
        #expect(metrics.samples("syncmon_host_network_up").count == (expected == nil ? 0 : 1))
        // photos never reported its network: it shows the host's view; notes said available.
        #expect(metrics.value("syncmon_network_status", ["engine": "photos", "status": status.description]) == 1)
        #expect(metrics.value("syncmon_network_status", ["engine": "notes", "status": "available"]) == 1)
    }

    @Test("OpenMetrics: same samples, closed by # EOF")
    func openMetrics() throws {
        let text = Self.render(.openMetrics)
        #expect(text.hasSuffix("# EOF\n"))
        let metrics = try MetricsText(text)
        #expect(metrics.endsWithEOF)
        #expect(metrics.samples.allSatisfy { $0.timestamp == nil })
        #expect(metrics.value("syncmon_status", ["engine": "photos", "status": "error"]) == 1)
        // State sets are gauges in both formats (see MetricFamily); counters are typed without _total.
        #expect(metrics.types["syncmon_status"] == "gauge")
        #expect(metrics.types["syncmon_phase_runs"] == "counter")
    }
}
