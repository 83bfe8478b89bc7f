import SyncmonCore
import Testing

/// The stall detectors of docs/protocol.md#stall-detectors and the clocks of docs/protocol.md#stall-detectors: each fires once elapsed ≥ T, never
/// while suppressed, and gets the full T again after every suppression ends.
@Suite("Stall detectors")
struct StallDetectorTests {
    /// The threshold used throughout: 100 s.
    static let threshold: Int64 = 100

    /// A pair whose `reason` condition holds from `conditionStart` on.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var reason: StallReason
        var steps: [Step]
        var conditionStart: Int64
        var testDescription: String { "\(self.reason)" }
    }

    /// Setup done by a containerEvent at 0, so that `engineStarted` later does not touch setup.
    static let preamble = [
        s(0, container(.setup, id: "S", started: 0)),
        s(0, container(.setup, id: "S", started: 0, ended: 0, succeeded: true)),
    ]

    static let scenarios: [Scenario] = [
        Scenario(reason: .notSyncing, steps: preamble, conditionStart: 0),
        Scenario(reason: .noProgress, steps: preamble + [s(10, .willFetchChanges)], conditionStart: 10),
        Scenario(reason: .pendingNotDraining, steps: preamble + [s(10, pending(3, 0))], conditionStart: 10),
        Scenario(reason: .retryLoop, steps: preamble + [s(10, .error(phase: nil, error: err(.networkFailure)))], conditionStart: 10),
        Scenario(reason: .noRecentImport, steps: preamble, conditionStart: 0),
        Scenario(reason: .noRecentExport, steps: preamble, conditionStart: 0),
    ]

    static func stalls(_ steps: [Step], at now: Timestamp, _ thresholds: StallThresholds) -> [StallReason] {
        Array(pairState(steps, upTo: now).stalls(at: now, thresholds: thresholds))
    }

    @Test("each detector fires at exactly T after its condition began, not one microsecond before", arguments: scenarios)
    func firesAtThreshold(_ scenario: Scenario) {
        let thresholds = only(scenario.reason, Self.threshold)
        let due = scenario.conditionStart + Self.threshold
        #expect(Self.stalls(scenario.steps, at: justBefore(due), thresholds) == [])
        #expect(Self.stalls(scenario.steps, at: at(due), thresholds) == [scenario.reason])
        #expect(Self.stalls(scenario.steps, at: at(due + 10_000), thresholds) == [scenario.reason])
        // The verdict: a stall makes the summary `stalled`.
        let state = pairState(scenario.steps)
        #expect(state.evaluate(at: at(due), thresholds: thresholds).summary == .stalled)
        #expect(state.evaluate(at: justBefore(due), thresholds: thresholds).summary != .stalled)
    }

    @Test("a threshold of 0 disables the detector", arguments: scenarios)
    func zeroDisables(_ scenario: Scenario) {
        var thresholds = StallThresholds.defaults
        thresholds[scenario.reason] = .zero
        let stalls = Self.stalls(scenario.steps, at: at(1_000_000), thresholds)
        #expect(!stalls.contains(scenario.reason))
        #expect(Self.stalls(scenario.steps, at: at(1_000_000), noThresholds) == [])
    }

    @Test("the defaults: 60 s, 300 s, 900 s, 1800 s, and no_recent_import and no_recent_export disabled")
    func defaults() {
        let defaults = StallThresholds.defaults
        #expect(defaults.notSyncing == span(60))
        #expect(defaults.noProgress == span(300))
        #expect(defaults.pendingNotDraining == span(900))
        #expect(defaults.retryLoop == span(1800))
        #expect(defaults.noRecentImport == .zero)
        #expect(defaults.noRecentExport == .zero)
        for (scenario, seconds) in zip(Self.scenarios, [Int64(60), 300, 900, 1800]) {
            let due = scenario.conditionStart + seconds
            #expect(!Self.stalls(scenario.steps, at: justBefore(due), defaults).contains(scenario.reason), "\(scenario.reason)")
            #expect(Self.stalls(scenario.steps, at: at(due), defaults).contains(scenario.reason), "\(scenario.reason)")
        }
    }

    // MARK: Suppression

    /// Something that keeps the engine from making progress from S to E.
    struct Suppression: Sendable, CustomTestStringConvertible {
        var label: String
        /// The summary while it lasts.
        var summary: Summary
        /// The steps, given S and E.
        var steps: @Sendable (_ start: Int64, _ end: Int64) -> [Step]
        var testDescription: String { self.label }
    }

    static let suppressions: [Suppression] = [
        Suppression(label: "engine stopped", summary: .stopped) { start, end in
            [s(start, .engineStopped), s(end, .heartbeat)]
        },
        Suppression(label: "engine down (heartbeats missed)", summary: .engineDown) { start, end in
            [s(start, engineStarted(heartbeat: 10))] + heartbeats(from: end, through: end + StallDetectorTests.threshold + 20)
        },
        Suppression(label: "engine down (connection closed)", summary: .engineDown) { start, end in
            [s(start, engineStarted(), connection: 1), closed(start), s(end, .heartbeat)]
        },
        Suppression(label: "network unavailable", summary: .noNetwork) { start, end in
            [s(start, .networkStatus(available: false)), s(end, .networkStatus(available: true))]
        },
        Suppression(label: "account known and not available", summary: .accountNotAvailable) { start, end in
            [s(start, .accountStatus(.noAccount)), s(end, .accountStatus(.available))]
        },
        Suppression(label: "account restricted", summary: .accountNotAvailable) { start, end in
            [s(start, .accountStatus(.restricted)), s(end, .accountStatus(.available))]
        },
        Suppression(label: "throttled", summary: .throttled) { start, end in
            [s(start, .error(phase: nil, error: err(.serverRecordChanged, retryAfter: end - start)))]
        },
    ]

    @Test("every suppression prevents every detector from firing, and T restarts when it ends", arguments: scenarios, suppressions)
    func suppression(_ scenario: Scenario, _ suppression: Suppression) {
        let thresholds = only(scenario.reason, Self.threshold)
        let start = scenario.conditionStart + 20
        let end = scenario.conditionStart + 150
        // A stable sort: steps at the same time keep their order.
        let steps = (scenario.steps + suppression.steps(start, end)).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        // Without the suppression it would have fired at conditionStart + T (< end).
        let inside = scenario.conditionStart + Self.threshold + 10
        #expect(Self.stalls(steps, at: at(inside), thresholds) == [])
        #expect(pairState(steps, upTo: at(inside)).evaluate(at: at(inside), thresholds: thresholds).summary == suppression.summary)
        #expect(Self.stalls(steps, at: justBefore(end), thresholds) == [])
        // The full T again from the end of the suppression.
        #expect(Self.stalls(steps, at: at(end), thresholds) == [])
        #expect(Self.stalls(steps, at: justBefore(end + Self.threshold), thresholds) == [])
        #expect(Self.stalls(steps, at: at(end + Self.threshold), thresholds) == [scenario.reason])
    }

    @Test("an unknown account and an unknown network suppress nothing")
    func unknownConditions() {
        let state = pairState(Self.preamble)
        #expect(state.account == .unknown)
        #expect(state.network == .unknown)
        #expect(Array(state.stalls(at: at(100), thresholds: only(.notSyncing, 100))) == [.notSyncing])
    }

    @Test("a suppression that ended before the condition began does not delay it")
    func earlierSuppression() {
        let steps = Self.preamble + [s(1, .networkStatus(available: false)), s(5, .networkStatus(available: true)), s(10, .willFetchChanges)]
        let thresholds = only(.noProgress, 100)
        #expect(Self.stalls(steps, at: justBefore(110), thresholds) == [])
        #expect(Self.stalls(steps, at: at(110), thresholds) == [.noProgress])
    }

    @Test("a throttle running when the condition begins: T counts from the throttle's end")
    func throttleAcrossConditionStart() {
        let steps = Self.preamble + [s(5, .error(phase: nil, error: err(.zoneBusy, retryAfter: 45))), s(10, .willFetchChanges)]
        let thresholds = only(.noProgress, 100)
        #expect(Self.stalls(steps, at: at(110), thresholds) == [])
        #expect(Self.stalls(steps, at: justBefore(150), thresholds) == [])
        #expect(Self.stalls(steps, at: at(150), thresholds) == [.noProgress])
    }

    @Test("a throttle that ran out and was followed by another: T from the latest throttle's end")
    func successiveThrottles() {
        let steps =
            Self.preamble + [
                s(10, .willFetchChanges),
                s(20, .error(phase: nil, error: err(.zoneBusy, retryAfter: 10))),  // until 30
                s(60, .error(phase: nil, error: err(.zoneBusy, retryAfter: 20))),  // until 80
            ]
        let thresholds = only(.noProgress, 100)
        #expect(Self.stalls(steps, at: justBefore(130), thresholds) == [])  // the first throttle alone would allow 130
        #expect(Self.stalls(steps, at: justBefore(180), thresholds) == [])
        #expect(Self.stalls(steps, at: at(180), thresholds) == [.noProgress])
    }

    @Test("a shortened throttle ends at its new end")
    func shortenedThrottle() {
        let steps =
            Self.preamble + [
                s(10, .willFetchChanges),
                s(20, .error(phase: nil, error: err(.zoneBusy, retryAfter: 1000))),
                s(30, .error(phase: nil, error: err(.zoneBusy, retryAfter: 10))),  // now until 40
            ]
        let thresholds = only(.noProgress, 100)
        #expect(Self.stalls(steps, at: justBefore(140), thresholds) == [])
        #expect(Self.stalls(steps, at: at(140), thresholds) == [.noProgress])
    }

    @Test("back-to-back suppressions: T from the end of the last one")
    func overlappingSuppressions() {
        let steps =
            Self.preamble + [
                s(10, .willFetchChanges),
                s(20, .networkStatus(available: false)),
                s(30, .accountStatus(.noAccount)),
                s(40, .networkStatus(available: true)),  // account still unavailable: still suppressed
                s(70, .accountStatus(.available)),
            ]
        let thresholds = only(.noProgress, 100)
        #expect(Self.stalls(steps, at: at(150), thresholds) == [])
        #expect(Self.stalls(steps, at: justBefore(170), thresholds) == [])
        #expect(Self.stalls(steps, at: at(170), thresholds) == [.noProgress])
    }

    // MARK: Clocks and clearing (docs/protocol.md#stall-detectors)

    struct ClockCase: Sendable, CustomTestStringConvertible {
        var label: String
        var steps: [Step]
        var reason: StallReason
        /// The first instant it fires; nil when it must not fire by `horizon`.
        var firesAt: Int64?
        /// The instant it clears again for good, if it does.
        var clearsAt: Int64? = nil
        var horizon: Int64 = 10_000
        var testDescription: String { self.label }
    }

    static let clocks: [ClockCase] = [
        ClockCase(
            label: "not_syncing: from the end of the setup that succeeded",
            steps: [s(0, engineStarted()), s(30, .accountStatus(.available))], reason: .notSyncing, firesAt: 130),
        ClockCase(
            label: "not_syncing: cleared by an import start after setup",
            steps: [s(0, engineStarted()), s(30, .accountStatus(.available)), s(150, .willFetchChanges)], reason: .notSyncing, firesAt: 130, clearsAt: 150),
        ClockCase(
            label: "not_syncing: an import started at the setup's start counts",
            steps: [s(5, container(.setup, id: "S", started: 5)), s(5, .willFetchChanges), s(6, container(.setup, id: "S", started: 5, ended: 6))],
            reason: .notSyncing, firesAt: nil),
        ClockCase(
            label: "not_syncing: an import before the setup's start does not count",
            steps: [
                s(0, .willFetchChanges), s(1, .didFetchChanges), s(5, container(.setup, id: "S", started: 5)),
                s(6, container(.setup, id: "S", started: 5, ended: 6)),
            ],
            reason: .notSyncing, firesAt: 106),
        ClockCase(
            label: "not_syncing: not while setup is in progress or failed",
            steps: [s(0, engineStarted()), s(1, .error(phase: .setup, error: err(.badContainer)))], reason: .notSyncing, firesAt: nil),
        ClockCase(
            label: "not_syncing: a setup completed by a cycle has had its import",
            steps: [s(0, engineStarted()), s(1, .willFetchChanges), s(2, .didFetchChanges)], reason: .notSyncing, firesAt: nil),
        ClockCase(
            label: "no_progress: a progress event restarts the clock",
            steps: [s(0, .willFetchChanges), s(50, .fetchedDatabaseChanges(modifications: 1, deletions: 0))], reason: .noProgress, firesAt: 150),
        ClockCase(
            label: "no_progress: zone events are progress",
            steps: [s(0, .willFetchChanges), s(40, .willFetchRecordZoneChanges), s(70, .didFetchRecordZoneChanges(error: nil))],
            reason: .noProgress, firesAt: 170),
        ClockCase(
            label: "no_progress: export batches are progress",
            steps: [s(0, .willSendChanges), s(60, sentRecords(saved: 1))], reason: .noProgress, firesAt: 160),
        ClockCase(
            label: "no_progress: heartbeats are not progress",
            steps: [s(0, .willFetchChanges)] + heartbeats(from: 10, through: 200), reason: .noProgress, firesAt: 100),
        ClockCase(
            label: "no_progress: cleared when the cycle ends",
            steps: [s(0, .willFetchChanges), s(150, .didFetchChanges)], reason: .noProgress, firesAt: 100, clearsAt: 150),
        ClockCase(
            label: "no_progress: covers a CKSyncEngine setup from its start",
            steps: [s(0, engineStarted())], reason: .noProgress, firesAt: 100),
        ClockCase(
            label: "no_progress: covers a containerEvent phase from its reported start",
            steps: [s(5, container(.export, id: "E", started: 2))], reason: .noProgress, firesAt: 102),
        ClockCase(
            label: "no_progress: the least recently active open phase counts",
            steps: [s(0, .willFetchChanges), s(50, .willSendChanges)], reason: .noProgress, firesAt: 100),
        ClockCase(
            label: "no_progress: a restarted cycle starts the clock again",
            steps: [s(0, .willFetchChanges), s(60, .willFetchChanges)], reason: .noProgress, firesAt: 160),
        ClockCase(
            label: "pending_not_draining: from when pending went above 0",
            steps: [s(0, .heartbeat), s(20, pending(0, 2))], reason: .pendingNotDraining, firesAt: 120),
        ClockCase(
            label: "pending_not_draining: more pending does not restart the clock",
            steps: [s(20, pending(3, 0)), s(60, pending(5, 1))], reason: .pendingNotDraining, firesAt: 120),
        ClockCase(
            label: "pending_not_draining: an export success restarts the clock",
            steps: [s(20, pending(3, 0)), s(50, .willSendChanges), s(60, .didSendChanges)], reason: .pendingNotDraining, firesAt: 160),
        ClockCase(
            label: "pending_not_draining: a failed export does not restart it",
            steps: [s(20, pending(3, 0)), s(50, .willSendChanges), s(55, sentRecords(saved: 0, deleted: 0, err(.quotaExceeded))), s(60, .didSendChanges)],
            reason: .pendingNotDraining, firesAt: 120),
        ClockCase(
            label: "pending_not_draining: an earlier export success does not help",
            steps: [s(0, .willSendChanges), s(5, .didSendChanges), s(20, pending(3, 0))], reason: .pendingNotDraining, firesAt: 120),
        ClockCase(
            label: "pending_not_draining: cleared when pending drops to 0",
            steps: [s(20, pending(3, 0)), s(130, pending(0, 0))], reason: .pendingNotDraining, firesAt: 120, clearsAt: 130),
        ClockCase(
            label: "pending_not_draining: back above 0 starts a new clock",
            steps: [s(20, pending(3, 0)), s(110, pending(0, 0)), s(130, pending(1, 0))], reason: .pendingNotDraining, firesAt: 230),
        ClockCase(
            label: "pending_not_draining: cleared by an account change",
            steps: [s(20, pending(3, 0)), s(150, .accountChange(.switchAccounts))], reason: .pendingNotDraining, firesAt: 120, clearsAt: 150),
        ClockCase(
            label: "retry_loop: from the first transient error",
            steps: [s(10, .error(phase: nil, error: err(.networkFailure))), s(50, .error(phase: nil, error: err(.zoneBusy)))],
            reason: .retryLoop, firesAt: 110),
        ClockCase(
            label: "retry_loop: transient failures in a failure list count",
            steps: [s(10, .willSendChanges), s(15, sentRecords(saved: 0, deleted: 0, err(.zoneBusy)))], reason: .retryLoop, firesAt: 115),
        ClockCase(
            label: "retry_loop: a failed transient cycle does not clear it",
            steps: [s(10, .willFetchChanges), s(15, .didFetchRecordZoneChanges(error: err(.networkFailure))), s(20, .didFetchChanges)],
            reason: .retryLoop, firesAt: 115),
        ClockCase(
            label: "retry_loop: a transient containerEvent failure counts",
            steps: [s(10, container(.export, id: "E", started: 5, ended: 10, error: err(.serviceUnavailable)))], reason: .retryLoop, firesAt: 110),
        ClockCase(
            label: "retry_loop: any success clears it",
            steps: [s(10, .error(phase: nil, error: err(.networkFailure))), s(160, .willSendChanges), s(170, .didSendChanges)],
            reason: .retryLoop, firesAt: 110, clearsAt: 170),
        ClockCase(
            label: "retry_loop: a transient error after the success starts a new clock",
            steps: [s(10, .error(phase: nil, error: err(.networkFailure))), s(60, .didSendChanges), s(80, .error(phase: .import, error: err(.zoneBusy)))],
            reason: .retryLoop, firesAt: 180),
        ClockCase(
            label: "retry_loop: a setup success clears it",
            steps: [s(0, engineStarted()), s(10, .error(phase: .setup, error: err(.notAuthenticated))), s(20, .accountStatus(.available))],
            reason: .retryLoop, firesAt: nil),
        ClockCase(
            label: "retry_loop: actionable and conflict errors do not feed it",
            steps: [s(10, .error(phase: nil, error: err(.quotaExceeded))), s(20, .error(phase: nil, error: err(.serverRecordChanged)))],
            reason: .retryLoop, firesAt: nil),
        ClockCase(
            label: "no_recent_import: from the pair's first event when no import succeeded",
            steps: [s(7, .heartbeat), s(50, .willSendChanges), s(60, .didSendChanges)], reason: .noRecentImport, firesAt: 107),
        ClockCase(
            label: "no_recent_import: from the last import success",
            steps: [s(0, .heartbeat), s(40, .willFetchChanges), s(50, .didFetchChanges)], reason: .noRecentImport, firesAt: 150),
        ClockCase(
            label: "no_recent_import: a failed import does not count",
            steps: [s(0, .heartbeat), s(40, .willFetchChanges), s(45, .didFetchRecordZoneChanges(error: err(.zoneNotFound))), s(50, .didFetchChanges)],
            reason: .noRecentImport, firesAt: 100),
        ClockCase(
            label: "no_recent_import: a containerEvent import success counts",
            steps: [s(0, .heartbeat), s(60, container(.import, id: "I", started: 55, ended: 60))], reason: .noRecentImport, firesAt: 160),
        ClockCase(
            label: "no_recent_export: from the pair's first event when no export succeeded",
            steps: [s(7, .heartbeat), s(50, .willFetchChanges), s(60, .didFetchChanges)], reason: .noRecentExport, firesAt: 107),
        ClockCase(
            label: "no_recent_export: from the last export success",
            steps: [s(0, .heartbeat), s(40, .willSendChanges), s(50, .didSendChanges)], reason: .noRecentExport, firesAt: 150),
        ClockCase(
            label: "no_recent_export: a failed export does not count",
            steps: [s(0, .heartbeat), s(40, .willSendChanges), s(45, sentRecords(saved: 0, deleted: 0, err(.quotaExceeded))), s(50, .didSendChanges)],
            reason: .noRecentExport, firesAt: 100),
        ClockCase(
            label: "no_recent_export: a wrap-style containerEvent export success counts",
            steps: [s(0, .heartbeat), s(60, container(.export, id: "E", started: 55, ended: 60))], reason: .noRecentExport, firesAt: 160),
        ClockCase(
            label: "no_recent_export: an import success does not count",
            steps: [s(0, .heartbeat), s(60, container(.import, id: "I", started: 55, ended: 60))], reason: .noRecentExport, firesAt: 100),
        ClockCase(
            label: "no_recent_export: a running export is no success",
            steps: [s(0, .heartbeat), s(50, .willSendChanges), s(60, sentRecords(saved: 3))], reason: .noRecentExport, firesAt: 100),
    ]

    @Test("stall clocks start and clear as docs/protocol.md#stall-detectors says", arguments: clocks)
    func clock(_ testCase: ClockCase) {
        let thresholds = only(testCase.reason, Self.threshold)
        if let firesAt = testCase.firesAt {
            #expect(Self.stalls(testCase.steps, at: justBefore(firesAt), thresholds) == [])
            #expect(Self.stalls(testCase.steps, at: at(firesAt), thresholds) == [testCase.reason])
        }
        if let clearsAt = testCase.clearsAt {
            #expect(Self.stalls(testCase.steps, at: justBefore(clearsAt), thresholds) == [testCase.reason])
        }
        if testCase.firesAt == nil || testCase.clearsAt != nil {
            for time in stride(from: testCase.clearsAt ?? 0, through: testCase.horizon, by: 50) {
                #expect(Self.stalls(testCase.steps, at: at(time), thresholds) == [], "at \(time)s")
            }
        }
    }

    @Test("several stalls are listed in documented order")
    func order() {
        let steps = Self.preamble + [s(1, pending(1, 0)), s(2, .error(phase: nil, error: err(.networkFailure)))]
        let all = StallThresholds(
            notSyncing: span(10), noProgress: span(10), pendingNotDraining: span(10), retryLoop: span(10), noRecentImport: span(10), noRecentExport: span(10)
        )
        #expect(Self.stalls(steps, at: at(100), all) == [.notSyncing, .pendingNotDraining, .retryLoop, .noRecentImport, .noRecentExport])
        let withProgress = steps + [s(3, .willSendChanges)]
        #expect(Self.stalls(withProgress, at: at(100), all) == StallReason.thresholdReasons)
    }

    @Test("per-engine thresholds replace the global ones for that engine only")
    func perEngineThresholds() {
        let fast = name("fast")
        let slow = name("slow")
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.notSyncing, 60), engineThresholds: [fast: only(.notSyncing, 10)]))
        for engine in [fast, slow] {
            monitor.apply(Event(engine: engine, payload: engineStarted()), at: at(0))
            monitor.apply(Event(engine: engine, payload: .accountStatus(.available)), at: at(0))
        }
        let fastKey = PairKey(engine: fast, database: .private)
        let slowKey = PairKey(engine: slow, database: .private)
        #expect(monitor.configuration.thresholds(for: fast) == only(.notSyncing, 10))
        #expect(monitor.configuration.thresholds(for: slow) == only(.notSyncing, 60))
        #expect(monitor.evaluate(fastKey, at: justBefore(10))?.stalls.isEmpty == true)
        #expect(monitor.evaluate(fastKey, at: at(10))?.stalls.contains(.notSyncing) == true)
        #expect(monitor.evaluate(slowKey, at: at(10))?.stalls.isEmpty == true)
        #expect(monitor.evaluate(slowKey, at: justBefore(60))?.stalls.isEmpty == true)
        #expect(monitor.evaluate(slowKey, at: at(60))?.stalls.contains(.notSyncing) == true)
        let rows = monitor.rows(at: at(10))
        #expect(rows.map(\.summary) == [.stalled, .notStarted])
        // A per-engine 0 disables the detector for that engine alone.
        monitor.configuration.engineThresholds[slow] = noThresholds
        #expect(monitor.evaluate(slowKey, at: at(10_000))?.stalls.isEmpty == true)
        #expect(monitor.evaluate(fastKey, at: at(10_000))?.stalls.contains(.notSyncing) == true)
    }

    @Test("every stall reason has a bit in StallSet, and a set of all of them holds all of them")
    func stallSetWidth() {
        #expect(StallReason.allCases.count <= MemoryLayout<StallSet>.size * 8)
        let all = StallSet(StallReason.allCases)
        #expect(Array(all) == StallReason.allCases)
    }

    @Test("stall reasons have the documented label spellings and parse back")
    func names() {
        #expect(
            StallReason.allCases.map(\.description) == [
                "not_syncing", "no_progress", "pending_not_draining", "retry_loop", "no_recent_import", "no_recent_export", "canary_late",
            ]
        )
        for reason in StallReason.allCases { #expect(StallReason(reason.description) == reason) }
        #expect(StallReason("stalled") == nil)
        var set = StallSet()
        #expect(set.isEmpty)
        set.insert(.retryLoop)
        set.insert(.notSyncing)
        set.insert(.retryLoop)
        #expect(Array(set) == [.notSyncing, .retryLoop])
        #expect(StallSet([.noRecentImport, .noProgress]).contains(.noProgress))
        #expect(!StallSet([.noRecentImport]).contains(.noProgress))
        #expect(Array(StallSet(StallReason.allCases)) == StallReason.allCases, "every reason has a bit of its own")
    }
}
