import SyncmonCore
import SyncmonExposition
import SyncmonSources

/// Renders `/metrics` (docs/metrics.md) from a snapshot of the state model. Pure: the caller passes the
/// snapshot, the process figures and the time.
///
/// Every state set is written whole (exactly one `1`), every per-pair family carries `engine`
/// and `database`, and no sample has a timestamp. Families are written one after another, each
/// with all pairs, as the text format requires.
package struct MetricsRenderer: Sendable {
    /// Build facts for `syncmon_build_info`.
    package var version: String
    package var revision: String
    /// The subscribe sources, for `syncmon_source_up` / `syncmon_source_reconnects_total`.
    package var sources: SourceRegistry = .none
    /// How saving the state goes, for `syncmon_state_*`.
    package var persistence = PersistenceHealth()
    /// The `unit:` sources' rules, for `syncmon_rules_reload_failures_total`.
    package var unitRules = UnitRulesRegistry()
    /// The notification routes, for `syncmon_notifications_*` (docs/notifications.md).
    package var notifications: NotificationService? = nil

    package init(version: String, revision: String) {
        self.version = version
        self.revision = revision
    }

    /// The families, defined once (their names and help are checked at first use).
    enum Families {
        static let buildInfo = MetricFamily.info("syncmon_build_info", help: "Build information; always 1.")
        // Named `syncmon_status`, not after the summary it carries: promtool's lint refuses a
        // Prometheus type name ("summary") inside a metric name (docs/metrics.md#promtool).
        static let summary = MetricFamily.stateSet(
            "syncmon_status",
            help: "Status (summary) of each engine and database; the current status is 1.",
            label: "status",
            states: Summary.allCases.map(\.description)
        )
        static let phaseState = MetricFamily.stateSet(
            "syncmon_phase_state",
            help: "State of each phase (setup, import, export); the current state is 1.",
            label: "state",
            states: PhaseStateName.allCases.map(\.description)
        )
        static let lastStart = MetricFamily.gauge(
            "syncmon_phase_last_start_timestamp_seconds",
            help: "When the latest cycle of the phase started (absent until one has)."
        )
        static let lastSuccess = MetricFamily.gauge(
            "syncmon_phase_last_success_timestamp_seconds",
            help: "When the latest successful cycle of the phase ended (absent until one has)."
        )
        static let duration = MetricFamily.histogram(
            "syncmon_phase_duration_seconds",
            help: "Duration of completed phase cycles.",
            buckets: DurationHistogram.bounds
        )
        static let runs = MetricFamily.counter("syncmon_phase_runs_total", help: "Completed phase cycles, whatever their outcome.")
        static let failures = MetricFamily.counter("syncmon_phase_failures_total", help: "Completed phase cycles that failed.")
        static let stalled = MetricFamily.stateSet(
            "syncmon_stalled",
            help: "Whether each stall detector fires (1) or not (0).",
            label: "reason",
            states: StallReason.allCases.map(\.description)
        )
        static let account = MetricFamily.stateSet(
            "syncmon_account_status",
            help: "Account status as the engine reports it; the current status is 1.",
            label: "status",
            states: AccountStatus.allCases.map(\.description)
        )
        static let network = MetricFamily.stateSet(
            "syncmon_network_status",
            help: "Network status as the engine reports it, else the host's own view; the current status is 1.",
            label: "status",
            states: NetworkStatus.allCases.map(\.description)
        )
        static let throttledUntil = MetricFamily.gauge(
            "syncmon_throttled_until_timestamp_seconds",
            help: "Until when the engine was told to wait (retry-after); 0 if never. Throttled while above time()."
        )
        static let pending = MetricFamily.gauge("syncmon_pending_changes", help: "Changes waiting to be sent, by kind.")
        static let errors = MetricFamily.counter(
            "syncmon_errors_total",
            help: "Errors reported by the engine, by phase, class and code (unknown codes are grouped as other)."
        )
        static let fetched = MetricFamily.counter("syncmon_records_fetched_total", help: "Records fetched, by change.")
        static let sent = MetricFamily.counter("syncmon_records_sent_total", help: "Records sent, by operation.")
        static let accountChanges = MetricFamily.counter("syncmon_account_changes_total", help: "Account changes, by kind.")
        static let up = MetricFamily.gauge("syncmon_engine_up", help: "1 while the engine runs (not stopped, not down).")
        static let lastEvent = MetricFamily.gauge(
            "syncmon_engine_last_event_timestamp_seconds",
            help: "When the latest event of the engine and database happened."
        )
        static let received = MetricFamily.counter("syncmon_events_received_total", help: "Event lines received, by transport.")
        static let rejected = MetricFamily.counter("syncmon_events_rejected_total", help: "Event lines rejected, by reason.")
        static let tracked = MetricFamily.gauge("syncmon_tracked_engines", help: "Engine and database pairs tracked.")
        static let hostNetworkUp = MetricFamily.gauge(
            "syncmon_host_network_up",
            help: "1 while the host has a default route through an interface that is up, 0 while it has none; absent when not followed."
        )
        static let saveFailures = MetricFamily.counter(
            "syncmon_state_save_failures_total",
            help: "Saves of the state file that failed (full or read-only state directory); each is retried until one succeeds."
        )
        static let lastSave = MetricFamily.gauge(
            "syncmon_state_last_save_timestamp_seconds",
            help: "When the state file was last written completely; absent before the first save."
        )
        static let rulesReloadFailures = MetricFamily.counter(
            "syncmon_rules_reload_failures_total",
            help: "Reloads (SIGHUP) that found a unit: source's rules file with a problem; its running rules were kept."
        )
        static let sourceUp = MetricFamily.gauge("syncmon_source_up", help: "1 while the subscribe source is connected, by its configured name.")
        static let sourceReconnects = MetricFamily.counter("syncmon_source_reconnects_total", help: "Reconnects of each subscribe source.")
        static let unitRestarts = MetricFamily.counter("syncmon_unit_restarts_total", help: "Automatic restarts of a unit: source's service by systemd.")
        static let resident = MetricFamily.gauge("process_resident_memory_bytes", help: "Resident memory size in bytes.")
        static let virtual = MetricFamily.gauge("process_virtual_memory_bytes", help: "Virtual memory size in bytes.")
        static let cpu = MetricFamily.counter("process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.")
        static let start = MetricFamily.gauge("process_start_time_seconds", help: "Start time of the process since the Unix epoch in seconds.")
        static let openFDs = MetricFamily.gauge("process_open_fds", help: "Number of open file descriptors.")
        static let maxFDs = MetricFamily.gauge("process_max_fds", help: "Maximum number of open file descriptors.")
    }

    /// Label sets that never change.
    enum Labels {
        static let phases = Phase.allCases.map { LabelSet("phase", $0.description) }
        static let recordZone = LabelSet("kind", "record_zone")
        static let database = LabelSet("kind", "database")
        static let modification = LabelSet("change", "modification")
        static let deletion = LabelSet("change", "deletion")
        static let save = LabelSet("op", "save")
        static let delete = LabelSet("op", "delete")
        static let accountChanges = AccountChangeType.allCases.map { LabelSet("change", $0.description) }
        static let transports = Transport.allCases.map { LabelSet("transport", $0.description) }
        static let reasons = RejectionReason.allCases.map { LabelSet("reason", $0.description) }
    }

    /// Renders the exposition whole. `sizeHint` (the previous size) avoids regrowing the buffer.
    package func render(
        monitor: Monitor,
        received: [UInt64],
        process: ProcessMetrics,
        format: ExpositionFormat,
        now: Timestamp,
        sizeHint: Int = 64 * 1024
    ) -> [UInt8] {
        var writer = ExpositionWriter(format: format, capacity: sizeHint + sizeHint / 8)
        self.write(into: &writer, monitor: monitor, received: received, process: process, now: now)
        return writer.finish()
    }

    /// Renders the exposition in pieces of about `pieceSize` bytes, written into the memory
    /// `pieces` lends and committed as they are done: `/metrics` starts sending before the last
    /// family is written, from the buffers it was written into, and a large exposition is never
    /// held whole.
    ///
    /// A piece's room (a piece and a quarter) stays under the daemon's 1 MiB mmap threshold
    /// (`Heap`): with 1 MiB pieces it was mapped afresh and faulted in at every scrape; at 256
    /// KiB it comes from the heap, warm from the last scrape.
    package func stream(
        monitor: Monitor,
        received: [UInt64],
        process: ProcessMetrics,
        format: ExpositionFormat,
        now: Timestamp,
        pieceSize: Int = Self.pieceSize,
        into pieces: any ExpositionPieceSink
    ) {
        var writer = ExpositionWriter(format: format, pieceSize: pieceSize, pieces: pieces)
        self.write(into: &writer, monitor: monitor, received: received, process: process, now: now)
        _ = writer.finish()
    }

    /// The size of a streamed piece: what the HTTP writer sends at a time.
    package static let pieceSize = 256 * 1024

    /// The `phase`, `class` and `code` labels of one `syncmon_errors_total` series.
    private static func errorLabels(_ key: ErrorCounterKey) -> LabelSet {
        LabelSet([
            "phase": key.phase?.description ?? "none",
            "class": (key.code.known?.errorClass ?? .actionable).description,
            "code": key.code.description,
        ])
    }

    private func write(
        into writer: inout ExpositionWriter,
        monitor: Monitor,
        received: [UInt64],
        process: ProcessMetrics,
        now: Timestamp
    ) {
        writer.family(Families.buildInfo)
        writer.sample(Families.buildInfo, labels: LabelSet(["version": self.version, "revision": self.revision]), value: 1)

        // Read in place: a loop over an array of pairs copied each 1.3 KB `PairState` (and
        // retained what it holds) once per family, 16 times per pair per scrape.
        SortedPairs.with(monitor.pairs) { pairs in
            // Each pair's labels rendered once, into one buffer (no `LabelSet` per pair).
            var labels = SeriesLabels(reservingSeries: pairs.count)
            for index in pairs.indices {
                pairs[index].key.engine.withBytes { labels.label("engine", $0) }
                pairs[index].key.database.name.withBytes { labels.label("database", $0) }
                labels.endSeries()
            }
            // By position, not `pairs.map`: its closure takes each pair by value, a copy of the
            // `PairState` per pair again.
            let evaluations = pairs.indices.map {
                pairs[$0].value.evaluate(at: now, thresholds: monitor.configuration.thresholds(for: pairs[$0].key.engine))
            }
            labels.withSeries { labels in
                Self.writeStatusFamilies(into: &writer, pairs: pairs, labels: labels, evaluations: evaluations)
                Self.writeEngineFamilies(into: &writer, pairs: pairs, labels: labels, now: now)
                Self.writeCanaries(into: &writer, pairs: pairs, labels: labels)
            }
        }
        self.writeDaemonFamilies(into: &writer, monitor: monitor, received: received, tracked: monitor.pairs.count)
        Self.writeProcessFamilies(into: &writer, process: process)
    }

    /// Each sorted pair's `engine`/`database` labels, at the pair's position.
    typealias PairLabels = UnsafeBufferPointer<SeriesLabel>

    /// Per pair: the verdict, the phases (states, times, durations, runs) and the stalls.
    private static func writeStatusFamilies(into writer: inout ExpositionWriter, pairs: SortedPairs, labels: PairLabels, evaluations: [Evaluation]) {
        writer.family(Families.summary)
        for index in pairs.indices { writer.stateSet(Lines.summary, labels: labels[index], active: evaluations[index].summary.rawValue) }
        writer.family(Families.phaseState)
        for index in pairs.indices {
            for phase in Phase.allCases {
                writer.stateSet(Lines.phaseState, labels: labels[index], group: phase.rawValue, active: pairs[index].value.stateName(of: phase).rawValue)
            }
        }
        Self.writePhaseFamilies(into: &writer, pairs: pairs, labels: labels)
        writer.family(Families.stalled)
        for index in pairs.indices {
            writer.stateSet(Lines.stalled, labels: labels[index], activeMask: UInt64(evaluations[index].stalls.rawValue))
        }
    }

    /// Per pair and phase: when cycles last started and succeeded, durations, runs and failures.
    private static func writePhaseFamilies(into writer: inout ExpositionWriter, pairs: SortedPairs, labels: PairLabels) {
        writer.family(Families.lastStart)
        for index in pairs.indices {
            for phase in Phase.allCases {
                if let time = PairState.lastStart(pairs[index].state, of: phase) {
                    writer.sample(Lines.lastStart, labels: labels[index], tail: phase.rawValue, microseconds: time.microseconds)
                }
            }
        }
        writer.family(Families.lastSuccess)
        for index in pairs.indices {
            for phase in Phase.allCases {
                if let time = PairState.lastSuccess(pairs[index].state, of: phase) {
                    writer.sample(Lines.lastSuccess, labels: labels[index], tail: phase.rawValue, microseconds: time.microseconds)
                }
            }
        }
        writer.family(Families.duration)
        for index in pairs.indices {
            for phase in Phase.allCases {
                let histogram = pairs[index].value.durations(of: phase)
                histogram.withCounts { counts in
                    writer.histogram(Lines.duration, labels: labels[index], group: phase.rawValue, bucketCounts: counts, sum: histogram.sum)
                }
            }
        }
        writer.family(Families.runs)
        for index in pairs.indices {
            for phase in Phase.allCases {
                writer.sample(Lines.runs, labels: labels[index], tail: phase.rawValue, value: pairs[index].value.runs(of: phase).runs)
            }
        }
        writer.family(Families.failures)
        for index in pairs.indices {
            for phase in Phase.allCases {
                writer.sample(Lines.failures, labels: labels[index], tail: phase.rawValue, value: pairs[index].value.runs(of: phase).failures)
            }
        }
    }

    /// Per pair: what the engine reported (account, network, throttle, pending, errors,
    /// records, account changes) and whether it runs.
    private static func writeEngineFamilies(into writer: inout ExpositionWriter, pairs: SortedPairs, labels: PairLabels, now: Timestamp) {
        writer.family(Families.account)
        for index in pairs.indices { writer.stateSet(Lines.account, labels: labels[index], active: pairs[index].value.account.rawValue) }
        writer.family(Families.network)
        for index in pairs.indices { writer.stateSet(Lines.network, labels: labels[index], active: PairState.network(pairs[index].state).rawValue) }
        writer.family(Families.throttledUntil)
        for index in pairs.indices {
            writer.sample(Lines.throttledUntil, labels: labels[index], microseconds: pairs[index].value.throttledUntil?.microseconds ?? 0)
        }
        writer.family(Families.pending)
        for index in pairs.indices {
            writer.sample(Lines.pending, labels: labels[index], tail: 0, value: Int(pairs[index].value.pendingRecordZoneChanges))
            writer.sample(Lines.pending, labels: labels[index], tail: 1, value: Int(pairs[index].value.pendingDatabaseChanges))
        }
        writer.family(Families.errors)
        // The same few codes recur across engines: render each label set once per scrape.
        var errorLabels: [ErrorCounterKey: LabelSet] = [:]
        for index in pairs.indices where !pairs[index].value.errors.isEmpty {
            for (key, count) in pairs[index].value.errors.sorted(by: { $0.key < $1.key }) {
                let extra = errorLabels[key] ?? Self.errorLabels(key)
                errorLabels[key] = extra
                writer.sample(Lines.errors, labels: labels[index], extra: extra, value: count)
            }
        }
        writer.family(Families.fetched)
        for index in pairs.indices {
            writer.sample(Lines.fetched, labels: labels[index], tail: 0, value: pairs[index].value.recordsFetched.changed)
            writer.sample(Lines.fetched, labels: labels[index], tail: 1, value: pairs[index].value.recordsFetched.deleted)
        }
        writer.family(Families.sent)
        for index in pairs.indices {
            writer.sample(Lines.sent, labels: labels[index], tail: 0, value: pairs[index].value.recordsSent.changed)
            writer.sample(Lines.sent, labels: labels[index], tail: 1, value: pairs[index].value.recordsSent.deleted)
        }
        writer.family(Families.accountChanges)
        for index in pairs.indices {
            for change in AccountChangeType.allCases {
                writer.sample(Lines.accountChanges, labels: labels[index], tail: change.rawValue, value: pairs[index].value.accountChanges[change])
            }
        }
        writer.family(Families.up)
        for index in pairs.indices { writer.sample(Lines.up, labels: labels[index], value: PairState.isUp(pairs[index].state, at: now) ? 1 : 0) }
        writer.family(Families.lastEvent)
        for index in pairs.indices { writer.sample(Lines.lastEvent, labels: labels[index], microseconds: pairs[index].value.lastEvent.microseconds) }
    }

    /// The daemon's own families: events received and rejected, pairs tracked, the host's
    /// network, saving, and the subscribe and unit sources.
    private func writeDaemonFamilies(into writer: inout ExpositionWriter, monitor: Monitor, received: [UInt64], tracked: Int) {
        writer.family(Families.received)
        for transport in Transport.allCases {
            writer.sample(
                Families.received, labels: Labels.transports[transport.rawValue],
                value: received.indices.contains(transport.rawValue) ? received[transport.rawValue] : 0)
        }
        writer.family(Families.rejected)
        for reason in RejectionReason.allCases {
            writer.sample(Families.rejected, labels: Labels.reasons[reason.rawValue], value: monitor.rejectedCount(reason))
        }
        writer.family(Families.tracked)
        writer.sample(Families.tracked, value: tracked)
        // The host's own view (docs/metrics.md): no sample while it is not followed (off,
        // rtnetlink unavailable, replay), so that "absent" is never mistaken for "offline".
        writer.family(Families.hostNetworkUp)
        switch monitor.hostNetwork {
        case .available: writer.sample(Families.hostNetworkUp, value: 1)
        case .unavailable: writer.sample(Families.hostNetworkUp, value: 0)
        case .unknown: break
        }
        let persistence = self.persistence.snapshot
        writer.family(Families.saveFailures)
        writer.sample(Families.saveFailures, value: persistence.failures)
        writer.family(Families.lastSave)
        if let lastSuccess = persistence.lastSuccess { writer.sample(Families.lastSave, value: lastSuccess.seconds) }
        // docs/metrics.md lists the subscribe sources' families; they are announced (HELP/TYPE) even while
        // no source is configured, so dashboards and alert rules find them. No sources, no samples.
        // One sample per configured source, labelled with its name (docs/subscribe.md).
        let sources = self.sources.samples()
        writer.family(Families.sourceUp)
        for source in sources { writer.sample(Families.sourceUp, labels: LabelSet("source", source.name), value: source.up ? 1 : 0) }
        writer.family(Families.sourceReconnects)
        for source in sources { writer.sample(Families.sourceReconnects, labels: LabelSet("source", source.name), value: source.reconnects) }
        writer.family(Families.rulesReloadFailures)
        writer.sample(Families.rulesReloadFailures, value: self.unitRules.failedReloads)
        writer.family(Families.unitRestarts)
        for (pair, restarts) in self.sources.unitRestarts.samples() {
            writer.sample(Families.unitRestarts, labels: LabelSet(["engine": pair.engine.description, "database": pair.database.description]), value: restarts)
        }
        self.writeNotifications(into: &writer)

    }

    /// The standard `process_*` families.
    private static func writeProcessFamilies(into writer: inout ExpositionWriter, process: ProcessMetrics) {
        writer.family(Families.resident)
        writer.sample(Families.resident, value: process.residentMemoryBytes)
        writer.family(Families.virtual)
        writer.sample(Families.virtual, value: process.virtualMemoryBytes)
        writer.family(Families.cpu)
        writer.sample(Families.cpu, value: process.cpuSeconds)
        writer.family(Families.start)
        writer.sample(Families.start, value: process.startTimeSeconds)
        writer.family(Families.openFDs)
        writer.sample(Families.openFDs, value: process.openFileDescriptors)
        writer.family(Families.maxFDs)
        writer.sample(Families.maxFDs, value: process.maximumFileDescriptors)
    }
}
