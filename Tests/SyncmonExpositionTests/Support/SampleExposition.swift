import SyncmonExposition

/// A realistic `/metrics` for N engine/database pairs: every docs/metrics.md family, written the way the
/// daemon will write it (family header once, then per engine a few samples with pre-rendered labels).
struct SampleExposition {
    /// Everything one engine/database pair contributes, with its labels rendered ahead of time.
    struct Engine {
        var labels: LabelSet
        var summary: Int
        var phaseStates: [Int]
        var lastStart: [Double]
        var lastSuccess: [Double]
        var durationCounts: [[UInt64]]
        var durationSums: [Double]
        var runs: [UInt64]
        var failures: [UInt64]
        var stalledMask: UInt64
        var account: Int
        var network: Int
        var throttledUntil: Double
        var pending: [Int]
        var errors: [(labels: LabelSet, count: UInt64)]
        var fetched: [UInt64]
        var sent: [UInt64]
        var accountChanges: [UInt64]
        var up: Int
        var lastEvent: Double
    }

    static let phaseLabels = SyncmonFamilies.phases.map { LabelSet("phase", $0) }
    static let kindLabels = ["record_zone", "database"].map { LabelSet("kind", $0) }
    static let fetchedLabels = ["modification", "deletion"].map { LabelSet("change", $0) }
    static let sentLabels = ["save", "delete"].map { LabelSet("op", $0) }
    static let accountChangeLabels = ["sign_in", "sign_out", "switch_accounts"].map { LabelSet("change", $0) }
    static let rejectReasons = [
        "malformed", "too_large", "unsupported_version", "invalid_field", "unknown_type", "engine_limit", "forbidden",
    ]

    var engines: [Engine]

    /// Builds `engineCount` pairs with deterministic, varied values. The first few engine names carry
    /// characters that must be escaped.
    init(engineCount: Int) {
        var random = SplitMix64(seed: 42)
        let awkwardNames = [#"notes "beta""#, #"C:\sync"#, "multi\nline", "ünïcødé"]
        let now = 1_717_171_717.0
        self.engines = (0..<engineCount).map { index in
            let name = index < awkwardNames.count ? awkwardNames[index] : "engine-\(index)"
            let database = ["private", "shared", "public"][index % 3]
            let errorCount = Int(random.next() % 3)
            return Engine(
                labels: LabelSet(["engine": name, "database": database]),
                summary: Int(random.next() % UInt64(SyncmonFamilies.summaryStates.count)),
                phaseStates: (0..<3).map { _ in Int(random.next() % 4) },
                lastStart: (0..<3).map { _ in now - Double(random.next() % 100_000) / 1000 },
                lastSuccess: (0..<3).map { phase in phase == 0 ? now - 86_400 : 0 },
                durationCounts: (0..<3).map { _ in
                    (0...SyncmonFamilies.durationBuckets.count).map { _ in random.next() % 20 }
                },
                durationSums: (0..<3).map { _ in Double(random.next() % 1_000_000) / 1000 },
                runs: (0..<3).map { _ in random.next() % 10_000 },
                failures: (0..<3).map { _ in random.next() % 10 },
                stalledMask: random.next() % 32,
                account: Int(random.next() % UInt64(SyncmonFamilies.accountStates.count)),
                network: Int(random.next() % UInt64(SyncmonFamilies.networkStates.count)),
                throttledUntil: index % 10 == 0 ? now + 30 : 0,
                pending: [Int(random.next() % 100), Int(random.next() % 5)],
                errors: (0..<errorCount).map { error in
                    (
                        LabelSet([
                            "phase": SyncmonFamilies.phases[error % 3],
                            "class": ["transient", "conflict", "actionable"][error % 3],
                            "code": ["networkFailure", "serverRecordChanged", "quotaExceeded"][error % 3],
                        ]),
                        random.next() % 50 + 1
                    )
                },
                fetched: [random.next() % 1_000_000, random.next() % 1000],
                sent: [random.next() % 100_000, random.next() % 100],
                accountChanges: [random.next() % 3, random.next() % 3, 0],
                up: Int(random.next() % 2),
                lastEvent: now - Double(random.next() % 60_000) / 1000
            )
        }
    }

    /// Series (sample lines) each engine contributes.
    static var seriesPerEngineWithoutErrors: Int {
        let phases = SyncmonFamilies.phases.count
        return SyncmonFamilies.summaryStates.count
            + phases * SyncmonFamilies.phaseStates.count
            + phases * 2  // last start and last success timestamps
            + phases * (SyncmonFamilies.durationBuckets.count + 1 + 2)
            + phases * 2  // runs and failures
            + SyncmonFamilies.stallReasons.count
            + SyncmonFamilies.accountStates.count
            + SyncmonFamilies.networkStates.count
            + 1 + 2 + 2 + 2 + 3 + 1 + 1  // throttle, pending, fetched, sent, account changes, up, last event
    }

    /// Sample lines the whole exposition has: the per-engine series, each engine's error series, and
    /// the daemon-wide families (build info, events, tracked engines, source, process).
    var seriesCount: Int {
        self.engines.count * Self.seriesPerEngineWithoutErrors
            + self.engines.reduce(0) { $0 + $1.errors.count }
            + 1 + 2 + Self.rejectReasons.count + 1 + 1 + 1 + 4
    }

    /// Renders the whole exposition.
    func render(_ format: ExpositionFormat, capacity: Int = 1 << 16) -> [UInt8] {
        var writer = ExpositionWriter(format: format, capacity: capacity)
        self.write(into: &writer)
        return writer.finish()
    }

    /// Writes every family, each followed by all engines' series.
    func write(into writer: inout ExpositionWriter) {
        typealias F = SyncmonFamilies
        writer.family(F.buildInfo)
        writer.sample(F.buildInfo, labels: LabelSet(["version": "1.0.0", "revision": "0123abc"]), value: 1)

        writer.family(F.summary)
        for engine in self.engines {
            writer.stateSet(F.summary, labels: engine.labels, active: engine.summary)
        }
        writer.family(F.phaseState)
        for engine in self.engines {
            for (phase, state) in engine.phaseStates.enumerated() {
                writer.stateSet(F.phaseState, labels: engine.labels, extra: Self.phaseLabels[phase], active: state)
            }
        }
        writer.family(F.phaseLastStart)
        for engine in self.engines {
            for (phase, value) in engine.lastStart.enumerated() {
                writer.sample(F.phaseLastStart, labels: engine.labels, extra: Self.phaseLabels[phase], value: value)
            }
        }
        writer.family(F.phaseLastSuccess)
        for engine in self.engines {
            for (phase, value) in engine.lastSuccess.enumerated() {
                writer.sample(F.phaseLastSuccess, labels: engine.labels, extra: Self.phaseLabels[phase], value: value)
            }
        }
        writer.family(F.phaseDuration)
        for engine in self.engines {
            for phase in 0..<3 {
                writer.histogram(
                    F.phaseDuration,
                    labels: engine.labels,
                    extra: Self.phaseLabels[phase],
                    bucketCounts: engine.durationCounts[phase],
                    sum: engine.durationSums[phase]
                )
            }
        }
        writer.family(F.phaseRuns)
        for engine in self.engines {
            for (phase, value) in engine.runs.enumerated() {
                writer.sample(F.phaseRuns, labels: engine.labels, extra: Self.phaseLabels[phase], value: value)
            }
        }
        writer.family(F.phaseFailures)
        for engine in self.engines {
            for (phase, value) in engine.failures.enumerated() {
                writer.sample(F.phaseFailures, labels: engine.labels, extra: Self.phaseLabels[phase], value: value)
            }
        }
        writer.family(F.stalled)
        for engine in self.engines {
            writer.stateSet(F.stalled, labels: engine.labels, activeMask: engine.stalledMask)
        }
        writer.family(F.accountStatus)
        for engine in self.engines {
            writer.stateSet(F.accountStatus, labels: engine.labels, active: engine.account)
        }
        writer.family(F.networkStatus)
        for engine in self.engines {
            writer.stateSet(F.networkStatus, labels: engine.labels, active: engine.network)
        }
        writer.family(F.throttledUntil)
        for engine in self.engines {
            writer.sample(F.throttledUntil, labels: engine.labels, value: engine.throttledUntil)
        }
        writer.family(F.pendingChanges)
        for engine in self.engines {
            for (kind, value) in engine.pending.enumerated() {
                writer.sample(F.pendingChanges, labels: engine.labels, extra: Self.kindLabels[kind], value: value)
            }
        }
        writer.family(F.errors)
        for engine in self.engines {
            for error in engine.errors {
                writer.sample(F.errors, labels: engine.labels, extra: error.labels, value: error.count)
            }
        }
        writer.family(F.recordsFetched)
        for engine in self.engines {
            for (change, value) in engine.fetched.enumerated() {
                writer.sample(F.recordsFetched, labels: engine.labels, extra: Self.fetchedLabels[change], value: value)
            }
        }
        writer.family(F.recordsSent)
        for engine in self.engines {
            for (op, value) in engine.sent.enumerated() {
                writer.sample(F.recordsSent, labels: engine.labels, extra: Self.sentLabels[op], value: value)
            }
        }
        writer.family(F.accountChanges)
        for engine in self.engines {
            for (change, value) in engine.accountChanges.enumerated() {
                writer.sample(
                    F.accountChanges,
                    labels: engine.labels,
                    extra: Self.accountChangeLabels[change],
                    value: value
                )
            }
        }
        writer.family(F.engineUp)
        for engine in self.engines {
            writer.sample(F.engineUp, labels: engine.labels, value: engine.up)
        }
        writer.family(F.engineLastEvent)
        for engine in self.engines {
            writer.sample(F.engineLastEvent, labels: engine.labels, value: engine.lastEvent)
        }

        writer.family(F.eventsReceived)
        for transport in ["socket", "journal"] {
            writer.sample(F.eventsReceived, labels: LabelSet("transport", transport), value: 123_456 as UInt64)
        }
        writer.family(F.eventsRejected)
        for reason in Self.rejectReasons {
            writer.sample(F.eventsRejected, labels: LabelSet("reason", reason), value: 0)
        }
        writer.family(F.trackedEngines)
        writer.sample(F.trackedEngines, value: self.engines.count)
        writer.family(F.sourceUp)
        writer.sample(F.sourceUp, labels: LabelSet("source", "main"), value: 1)
        writer.family(F.sourceReconnects)
        writer.sample(F.sourceReconnects, labels: LabelSet("source", "main"), value: 2)
        writer.family(F.residentMemory)
        writer.sample(F.residentMemory, value: 48_234_496)
        writer.family(F.cpuSeconds)
        writer.sample(F.cpuSeconds, value: 12.34)
        writer.family(F.startTime)
        writer.sample(F.startTime, value: 1_717_000_000.5)
        writer.family(F.openFDs)
        writer.sample(F.openFDs, value: 17)
    }
}
