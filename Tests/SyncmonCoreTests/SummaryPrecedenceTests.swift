import SyncmonCore
import Testing

/// docs/protocol.md#summary: the first summary that applies wins; docs/operations.md#commands, docs/operations.md#syncmon-status: the exit-code severities.
@Suite("Summary precedence and severity")
struct SummaryPrecedenceTests {
    /// An import that failed with `error` at 3…5.
    static func failedImport(_ error: SyncError) -> [Step] {
        [s(3, .willFetchChanges), s(4, .didFetchRecordZoneChanges(error: error)), s(5, .didFetchChanges)]
    }

    static let cases: [TransitionCase] = [
        TransitionCase(
            "stopped wins over everything",
            [
                s(0, engineStarted(heartbeat: 10)), s(1, .networkStatus(available: false)), s(2, .accountStatus(.noAccount)),
            ] + failedImport(err(.quotaExceeded)) + [
                s(6, .error(phase: nil, error: err(.zoneBusy, retryAfter: 10_000))), s(7, .willSendChanges), s(8, .engineStopped),
            ],
            now: at(5_000), [.summary(.stopped), .stalls([])]),
        TransitionCase(
            "engine_down (heartbeats) wins over no_network, account, error",
            [
                s(0, engineStarted(heartbeat: 10)), s(1, .networkStatus(available: false)), s(2, .accountStatus(.restricted)),
            ] + failedImport(err(.quotaExceeded)), now: at(35), [.summary(.engineDown)]),
        TransitionCase(
            "engine_down (connection closed) wins over no_network",
            [
                s(0, engineStarted(), connection: 3), s(1, .networkStatus(available: false)), closed(2),
            ], [.summary(.engineDown)]),
        TransitionCase(
            "no_network wins over account_not_available, error and throttled",
            [
                s(0, .networkStatus(available: false)), s(1, .accountStatus(.noAccount)),
            ] + failedImport(err(.quotaExceeded, retryAfter: 1000)), [.summary(.noNetwork)]),
        TransitionCase(
            "account_not_available wins over error and throttled", [s(0, .accountChange(.signOut))] + failedImport(err(.quotaExceeded, retryAfter: 1000)),
            [
                .summary(.accountNotAvailable)
            ]),
        TransitionCase("an unknown account is not account_not_available", failedImport(err(.quotaExceeded)), [.account(.unknown), .summary(.error)]),
        TransitionCase(
            "error (actionable failed phase) wins over stalled", failedImport(err(.zoneNotFound)) + [s(6, .willSendChanges)], now: at(1_000),
            [
                .stalls([.noProgress]), .summary(.error),
            ]),
        TransitionCase("error wins over throttled", failedImport(err(.zoneNotFound, retryAfter: 1000)), [.activeThrottle(at(1004)), .summary(.error)]),
        TransitionCase(
            "error wins over retrying",
            failedImport(err(.zoneNotFound)) + [
                s(10, .willSendChanges), s(11, sentRecords(saved: 0, deleted: 0, err(.networkFailure))), s(12, .didSendChanges),
            ], [.summary(.error)]),
        TransitionCase("a failed setup is an error", [s(0, engineStarted()), s(1, .error(phase: .setup, error: err(.badContainer)))], [.summary(.error)]),
        TransitionCase(
            "a containerEvent failed without an error is an error", [s(9, container(.import, id: "A", started: 1, ended: 9, succeeded: false))],
            [
                .summary(.error)
            ]),
        TransitionCase("stalled wins over retrying", failedImport(err(.networkFailure)), now: at(4 + 1800), [.stalls([.retryLoop]), .summary(.stalled)]),
        TransitionCase("stalled wins over in_progress", [s(0, .willFetchChanges)], now: at(300), [.stalls([.noProgress]), .summary(.stalled)]),
        TransitionCase(
            "stalled wins over not_started", [s(0, container(.setup, id: "S", started: 0, ended: 0))], now: at(60),
            [
                .stalls([.notSyncing]), .summary(.stalled),
            ]),
        TransitionCase("throttled wins over retrying", failedImport(err(.requestRateLimited, retryAfter: 60)), now: at(6), [.summary(.throttled)]),
        TransitionCase(
            "throttled wins over in_progress and suppresses the stall",
            [s(0, .willFetchChanges), s(299, .error(phase: nil, error: err(.zoneBusy, retryAfter: 100)))],
            now: at(300), [.stalls([]), .summary(.throttled)]),
        TransitionCase("retrying once the throttle is over", failedImport(err(.requestRateLimited, retryAfter: 60)), now: at(64), [.summary(.retrying)]),
        TransitionCase(
            "retrying (transient failed phase) wins over in_progress", failedImport(err(.networkFailure)) + [s(10, .willSendChanges)],
            [
                .summary(.retrying)
            ]),
        TransitionCase("not_started: only setup has started", [s(0, engineStarted()), s(1, .accountStatus(.available))], [.summary(.notStarted)]),
        TransitionCase(
            "a setup that failed with a transient error is retrying, not not_started",
            [s(9, container(.setup, id: "S", started: 1, ended: 9, error: err(.networkFailure)))], [.summary(.retrying)]),
        TransitionCase("in_progress wins over succeeded", [s(0, .willSendChanges), s(1, .didSendChanges), s(2, .willFetchChanges)], [.summary(.inProgress)]),
        TransitionCase("in_progress: setup and an export are open", [s(0, engineStarted()), s(1, .willSendChanges)], [.summary(.inProgress)]),
        TransitionCase("succeeded: an export succeeded and nothing is open", [s(0, .willSendChanges), s(1, .didSendChanges)], [.summary(.succeeded)]),
        TransitionCase("succeeded: an import succeeded and nothing is open", [s(0, .didFetchChanges)], [.summary(.succeeded)]),
    ]

    @Test("first match wins", arguments: cases)
    func precedence(_ testCase: TransitionCase) {
        testCase.run()
    }

    @Test("every summary a pair can reach is covered by the table")
    func coverage() {
        var reached: Set<Summary> = []
        for testCase in Self.cases {
            let state = pairState(testCase.steps)
            reached.insert(state.evaluate(at: testCase.now ?? at(testCase.steps.last!.time), thresholds: testCase.thresholds).summary)
        }
        // `unknown` needs a pair whose import or export started yet none is in progress, failed
        // or succeeded: events cannot produce that, so it is only reachable as a value.
        #expect(reached == Set(Summary.allCases).subtracting([.unknown]))
    }

    @Test("summaries are spelled as docs/protocol.md#summary and parse back")
    func names() {
        #expect(
            Summary.allCases.map(\.description) == [
                "stopped", "engine_down", "no_network", "account_not_available", "error", "stalled", "throttled", "retrying",
                "not_started", "in_progress", "succeeded", "unknown",
            ])
        for summary in Summary.allCases { #expect(Summary(summary.description) == summary) }
        #expect(Summary("ok") == nil)
        #expect(Summary("Stalled") == nil)
    }

    @Test("precedence order is the Comparable order: an engine's summary is the worst (smallest) of its databases")
    func ordering() {
        #expect(Summary.allCases.sorted() == Summary.allCases)
        #expect([Summary.succeeded, .stalled, .inProgress].min() == .stalled)
        #expect([Summary.unknown, .notStarted].min() == .notStarted)
        #expect(Summary.stopped < .engineDown)
        #expect(Summary.retrying < .notStarted)
    }

    static let severities: [(Summary, Severity)] = [
        (.succeeded, .ok), (.inProgress, .ok), (.notStarted, .ok), (.throttled, .ok), (.retrying, .ok), (.stopped, .ok),
        (.noNetwork, .warning), (.accountNotAvailable, .warning),
        (.error, .critical), (.stalled, .critical), (.engineDown, .critical),
        (.unknown, .unknown),
    ]

    @Test("each summary maps to its Nagios severity (docs/operations.md#commands)", arguments: severities)
    func severity(_ summary: Summary, _ expected: Severity) {
        #expect(summary.severity == expected)
    }

    @Test("the severity table covers every summary")
    func severityCoverage() {
        #expect(Set(Self.severities.map(\.0)) == Set(Summary.allCases))
    }

    @Test("severities are the exit codes 0, 1, 2, 3")
    func exitCodes() {
        #expect(Severity.ok.rawValue == 0)
        #expect(Severity.warning.rawValue == 1)
        #expect(Severity.critical.rawValue == 2)
        #expect(Severity.unknown.rawValue == 3)
        #expect([Severity.ok, .warning, .critical, .unknown].map(\.description) == ["OK", "WARNING", "CRITICAL", "UNKNOWN"])
    }

    static let worst: [([Severity], Severity)] = [
        ([], .unknown),
        ([.ok], .ok),
        ([.ok, .ok, .ok], .ok),
        ([.warning], .warning),
        ([.ok, .warning], .warning),
        ([.warning, .ok], .warning),
        ([.unknown], .unknown),
        ([.warning, .unknown], .unknown),
        ([.unknown, .warning, .ok], .unknown),
        ([.critical], .critical),
        ([.unknown, .critical], .critical),
        ([.critical, .unknown], .critical),
        ([.ok, .critical, .warning], .critical),
        ([.critical, .ok], .critical),
    ]

    @Test("worst: ok < warning < unknown < critical; no rows is unknown (docs/operations.md#syncmon-status)", arguments: worst)
    func worstOf(_ severities: [Severity], _ expected: Severity) {
        #expect(Severity.worst(of: severities) == expected)
    }
}
