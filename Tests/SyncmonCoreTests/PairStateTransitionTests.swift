import SyncmonCore
import Testing

/// What a sequence of events must leave behind in a pair (docs/protocol.md#phases, docs/protocol.md#account-and-network, docs/protocol.md#scope, docs/protocol.md#liveness).
enum Check: Sendable, CustomStringConvertible {
    case phase(Phase, PhaseState)
    case account(AccountStatus)
    case network(NetworkStatus)
    case pending(recordZone: Int64, database: Int64)
    /// The raw throttle, which may lie in the past.
    case throttledUntil(Timestamp?)
    /// The throttle as status shows it at `now`.
    case activeThrottle(Timestamp?)
    case up(Bool)
    case down(Bool)
    case stopped(Bool)
    case summary(Summary)
    case stalls([StallReason])
    case runs(Phase, UInt64)
    case failures(Phase, UInt64)
    case lastStart(Phase, Timestamp?)
    case lastSuccess(Phase, Timestamp?)
    case errors(Phase?, ErrorCodeLabel, UInt64)
    case errorSeriesCount(Int)
    case fetched(changed: UInt64, deleted: UInt64)
    case sent(changed: UInt64, deleted: UInt64)
    case accountChanges(AccountChangeType, UInt64)
    case lastEvent(Timestamp)
    case firstEvent(Timestamp)
    case durationCount(Phase, UInt64)
    case failing(Phase, OutstandingFailure?)

    var description: String {
        switch self {
        case .phase(let phase, let state): "\(phase) is \(state)"
        case .account(let status): "account \(status)"
        case .network(let status): "network \(status)"
        case .pending(let recordZone, let database): "pending \(recordZone)/\(database)"
        case .throttledUntil(let time): "throttledUntil \(time.map(RFC3339.format) ?? "nil")"
        case .activeThrottle(let time): "active throttle \(time.map(RFC3339.format) ?? "nil")"
        case .up(let up): "up \(up)"
        case .down(let down): "down \(down)"
        case .stopped(let stopped): "stopped \(stopped)"
        case .summary(let summary): "summary \(summary)"
        case .stalls(let reasons): "stalls \(reasons)"
        case .runs(let phase, let count): "\(phase) runs \(count)"
        case .failures(let phase, let count): "\(phase) failures \(count)"
        case .lastStart(let phase, let time): "\(phase) last start \(time.map(RFC3339.format) ?? "nil")"
        case .lastSuccess(let phase, let time): "\(phase) last success \(time.map(RFC3339.format) ?? "nil")"
        case .errors(let phase, let label, let count): "errors{\(phase.map(\.description) ?? "-"),\(label)} = \(count)"
        case .errorSeriesCount(let count): "\(count) error series"
        case .fetched(let changed, let deleted): "fetched \(changed)/\(deleted)"
        case .sent(let changed, let deleted): "sent \(changed)/\(deleted)"
        case .accountChanges(let type, let count): "\(type) × \(count)"
        case .lastEvent(let time): "last event \(RFC3339.format(time))"
        case .firstEvent(let time): "first event \(RFC3339.format(time))"
        case .durationCount(let phase, let count): "\(phase) durations observed \(count)"
        case .failing(let phase, let failure):
            "\(phase) failing " + (failure.map { "since \(RFC3339.format($0.since)) (\($0.error.code), \($0.error.errorClass))" } ?? "nil")
        }
    }

    /// Records an issue when the check does not hold for `state` at `now`.
    func verify(
        _ state: PairState, at now: Timestamp, thresholds: StallThresholds, fileID: String = #fileID, filePath: String = #filePath, sourceLine: Int = #line,
        column: Int = #column
    ) {
        let sourceLocation = SourceLocation(fileID: fileID, filePath: filePath, line: sourceLine, column: column)
        let evaluation = state.evaluate(at: now, thresholds: thresholds)
        switch self {
        case .phase(let phase, let expected): #expect(state[phase].state == expected, "\(self)", sourceLocation: sourceLocation)
        case .account(let expected): #expect(state.account == expected, "\(self)", sourceLocation: sourceLocation)
        case .network(let expected): #expect(state.network == expected, "\(self)", sourceLocation: sourceLocation)
        case .pending(let recordZone, let database):
            #expect(state.pendingRecordZoneChanges == recordZone, "\(self)", sourceLocation: sourceLocation)
            #expect(state.pendingDatabaseChanges == database, "\(self)", sourceLocation: sourceLocation)
        case .throttledUntil(let expected): #expect(state.throttledUntil == expected, "\(self)", sourceLocation: sourceLocation)
        case .activeThrottle(let expected): #expect(state.activeThrottle(at: now) == expected, "\(self)", sourceLocation: sourceLocation)
        case .up(let expected): #expect(state.isUp(at: now) == expected, "\(self)", sourceLocation: sourceLocation)
        case .down(let expected): #expect(state.isDown(at: now) == expected, "\(self)", sourceLocation: sourceLocation)
        case .stopped(let expected): #expect((state.liveness == .stopped) == expected, "\(self)", sourceLocation: sourceLocation)
        case .summary(let expected): #expect(evaluation.summary == expected, "\(self)", sourceLocation: sourceLocation)
        case .stalls(let expected): #expect(Array(evaluation.stalls) == expected, "\(self)", sourceLocation: sourceLocation)
        case .runs(let phase, let expected): #expect(state[phase].runs == expected, "\(self)", sourceLocation: sourceLocation)
        case .failures(let phase, let expected): #expect(state[phase].failures == expected, "\(self)", sourceLocation: sourceLocation)
        case .lastStart(let phase, let expected): #expect(state[phase].lastStart == expected, "\(self)", sourceLocation: sourceLocation)
        case .lastSuccess(let phase, let expected): #expect(state[phase].lastSuccess == expected, "\(self)", sourceLocation: sourceLocation)
        case .errors(let phase, let label, let expected):
            let count = state.errors.first { $0.key.phase == phase && $0.key.code == label }?.value ?? 0
            #expect(count == expected, "\(self)", sourceLocation: sourceLocation)
        case .errorSeriesCount(let expected): #expect(state.errors.count == expected, "\(self)", sourceLocation: sourceLocation)
        case .fetched(let changed, let deleted):
            #expect(state.recordsFetched.changed == changed && state.recordsFetched.deleted == deleted, "\(self)", sourceLocation: sourceLocation)
        case .sent(let changed, let deleted):
            #expect(state.recordsSent.changed == changed && state.recordsSent.deleted == deleted, "\(self)", sourceLocation: sourceLocation)
        case .accountChanges(let type, let expected):
            #expect(state.accountChanges[type.rawValue] == expected, "\(self)", sourceLocation: sourceLocation)
        case .lastEvent(let expected): #expect(state.lastEvent == expected, "\(self)", sourceLocation: sourceLocation)
        case .firstEvent(let expected): #expect(state.firstEvent == expected, "\(self)", sourceLocation: sourceLocation)
        case .durationCount(let phase, let expected): #expect(state[phase].durations.count == expected, "\(self)", sourceLocation: sourceLocation)
        case .failing(let phase, let expected): #expect(state[phase].failing == expected, "\(self)", sourceLocation: sourceLocation)
        }
    }
}

/// A sequence of steps, a moment to look at, and what must hold then.
struct TransitionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [Step]
    /// Defaults to the last step's time.
    var now: Timestamp?
    var thresholds: StallThresholds = .defaults
    var checks: [Check]
    var testDescription: String { self.name }

    init(_ name: String, _ steps: [Step], now: Timestamp? = nil, thresholds: StallThresholds = .defaults, _ checks: [Check]) {
        self.name = name
        self.steps = steps
        self.now = now
        self.thresholds = thresholds
        self.checks = checks
    }

    func run() {
        let state = pairState(self.steps)
        let now = self.now ?? at(self.steps.last?.time ?? 0)
        for check in self.checks { check.verify(state, at: now, thresholds: self.thresholds) }
    }
}

@Suite("PairState: import and export cycles")
struct PairStateCycleTests {
    static let cases: [TransitionCase] = [
        TransitionCase(
            "a new pair has nothing started", [s(0, .heartbeat)],
            [
                .phase(.setup, .notStarted), .phase(.import, .notStarted), .phase(.export, .notStarted),
                .account(.unknown), .network(.unknown), .pending(recordZone: 0, database: 0), .throttledUntil(nil),
                .up(true), .stopped(false), .summary(.notStarted), .stalls([]), .runs(.import, 0), .errorSeriesCount(0),
                .firstEvent(at(0)), .lastEvent(at(0)),
            ]),
        TransitionCase(
            "willFetchChanges starts an import", [s(10, .willFetchChanges)],
            [
                .phase(.import, .inProgress(since: at(10))), .phase(.export, .notStarted), .lastStart(.import, at(10)),
                .runs(.import, 0), .summary(.inProgress),
            ]),
        TransitionCase(
            "willFetchChanges … didFetchChanges succeeds", [s(10, .willFetchChanges), s(25, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(10), ended: at(25))), .runs(.import, 1), .failures(.import, 0),
                .lastSuccess(.import, at(25)), .lastStart(.import, at(10)), .durationCount(.import, 1), .summary(.succeeded),
            ]),
        TransitionCase(
            "willSendChanges … didSendChanges succeeds", [s(10, .willSendChanges), s(12, sentRecords(saved: 4, deleted: 2)), s(13, .didSendChanges)],
            [
                .phase(.export, .succeeded(started: at(10), ended: at(13))), .phase(.import, .notStarted), .runs(.export, 1),
                .lastSuccess(.export, at(13)), .sent(changed: 4, deleted: 2), .summary(.succeeded),
            ]),
        TransitionCase(
            "fetchedDatabaseChanges without a will opens an import implicitly",
            [s(0, .heartbeat), s(10, .fetchedDatabaseChanges(modifications: 3, deletions: 1))],
            [
                .phase(.import, .inProgress(since: at(10))), .lastStart(.import, at(10)), .fetched(changed: 3, deleted: 1),
            ]),
        TransitionCase(
            "fetchedRecordZoneChanges without a will opens an import implicitly",
            [s(10, .fetchedRecordZoneChanges(modifications: 2, deletions: 0)), s(20, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(10), ended: at(20))), .fetched(changed: 2, deleted: 0), .runs(.import, 1),
            ]),
        TransitionCase(
            "willFetchRecordZoneChanges opens an import implicitly", [s(10, .willFetchRecordZoneChanges)],
            [
                .phase(.import, .inProgress(since: at(10)))
            ]),
        TransitionCase(
            "didFetchRecordZoneChanges opens an import implicitly", [s(10, .didFetchRecordZoneChanges(error: nil))],
            [
                .phase(.import, .inProgress(since: at(10)))
            ]),
        TransitionCase(
            "sentRecordZoneChanges without a will opens an export implicitly", [s(10, sentRecords(saved: 1))],
            [
                .phase(.export, .inProgress(since: at(10))), .phase(.import, .notStarted),
            ]),
        TransitionCase(
            "sentDatabaseChanges without a will opens an export implicitly",
            [s(10, .sentDatabaseChanges(savedZones: 1, deletedZones: 0, failures: FailureDigest()))],
            [
                .phase(.export, .inProgress(since: at(10)))
            ]),
        TransitionCase(
            "progress inside an open cycle does not restart it",
            [
                s(10, .willFetchChanges), s(20, .fetchedDatabaseChanges(modifications: 1, deletions: 0)),
                s(30, .fetchedRecordZoneChanges(modifications: 2, deletions: 5)),
            ],
            [
                .phase(.import, .inProgress(since: at(10))), .lastStart(.import, at(10)), .fetched(changed: 3, deleted: 5),
            ]),
        TransitionCase(
            "a didFetchChanges with nothing open records a zero-length cycle", [s(0, .heartbeat), s(40, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(40), ended: at(40))), .runs(.import, 1), .lastStart(.import, at(40)),
                .lastSuccess(.import, at(40)), .durationCount(.import, 1),
            ]),
        TransitionCase(
            "a didSendChanges with nothing open records a zero-length cycle", [s(40, .didSendChanges)],
            [
                .phase(.export, .succeeded(started: at(40), ended: at(40))), .runs(.export, 1),
            ]),
        TransitionCase(
            "a did after a completed cycle is another zero-length cycle",
            [s(10, .willFetchChanges), s(20, .didFetchChanges), s(30, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(30), ended: at(30))), .runs(.import, 2), .lastStart(.import, at(30)),
            ]),
        TransitionCase(
            "a second will restarts the open cycle", [s(10, .willFetchChanges), s(20, .willFetchChanges), s(35, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(20), ended: at(35))), .runs(.import, 1), .lastStart(.import, at(20)),
            ]),
        TransitionCase(
            "a restart forgets the errors of the abandoned cycle",
            [
                s(10, .willFetchChanges), s(12, .didFetchRecordZoneChanges(error: err(.zoneNotFound))),
                s(20, .willFetchChanges), s(30, .didFetchChanges),
            ],
            [
                .phase(.import, .succeeded(started: at(20), ended: at(30))), .errors(.import, ErrorCodeLabel(.zoneNotFound), 1),
                .failures(.import, 0), .summary(.succeeded),
            ]),
        TransitionCase(
            "an actionable zone error fails the import",
            [s(10, .willFetchChanges), s(12, .didFetchRecordZoneChanges(error: err(.zoneNotFound))), s(20, .didFetchChanges)],
            [
                .phase(.import, .failed(started: at(10), ended: at(20), error: actionable(.zoneNotFound))), .runs(.import, 1),
                .failures(.import, 1), .lastSuccess(.import, nil), .summary(.error),
            ]),
        TransitionCase(
            "the first actionable error wins over an earlier transient one",
            [
                s(10, .willFetchChanges), s(11, .didFetchRecordZoneChanges(error: err(.networkFailure))),
                s(12, .didFetchRecordZoneChanges(error: err(.zoneNotFound))), s(13, .didFetchRecordZoneChanges(error: err(.quotaExceeded))),
                s(20, .didFetchChanges),
            ],
            [
                .phase(.import, .failed(started: at(10), ended: at(20), error: actionable(.zoneNotFound))),
                .errors(.import, ErrorCodeLabel(.networkFailure), 1), .errors(.import, ErrorCodeLabel(.zoneNotFound), 1),
                .errors(.import, ErrorCodeLabel(.quotaExceeded), 1), .summary(.error),
            ]),
        TransitionCase(
            "only transient errors: the first transient one, and the summary says retrying",
            [
                s(10, .willFetchChanges), s(11, .didFetchRecordZoneChanges(error: err(.zoneBusy))),
                s(12, .didFetchRecordZoneChanges(error: err(.networkFailure))), s(20, .didFetchChanges),
            ],
            [
                .phase(.import, .failed(started: at(10), ended: at(20), error: transient(.zoneBusy))), .failures(.import, 1),
                .summary(.retrying),
            ]),
        TransitionCase(
            "conflicts are counted only: the export succeeds",
            [
                s(10, .willSendChanges), s(11, sentRecords(saved: 3, deleted: 0, err(.serverRecordChanged), err(.serverRecordChanged))),
                s(12, .didSendChanges),
            ],
            [
                .phase(.export, .succeeded(started: at(10), ended: at(12))), .errors(.export, ErrorCodeLabel(.serverRecordChanged), 2),
                .failures(.export, 0), .summary(.succeeded),
            ]),
        TransitionCase(
            "failure lists: first actionable across saves and deletes",
            [
                s(10, .willSendChanges), s(11, sentRecords(saved: 0, deleted: 0, err(.zoneBusy), err(.serverRecordChanged))),
                s(12, sentRecords(saved: 0, deleted: 0, err(.limitExceeded), err(.quotaExceeded))), s(13, .didSendChanges),
            ],
            [
                .phase(.export, .failed(started: at(10), ended: at(13), error: actionable(.limitExceeded))),
                .errors(.export, ErrorCodeLabel(.zoneBusy), 1), .errors(.export, ErrorCodeLabel(.limitExceeded), 1),
                .errors(.export, ErrorCodeLabel(.quotaExceeded), 1), .errors(.export, ErrorCodeLabel(.serverRecordChanged), 1),
            ]),
        TransitionCase(
            "sentDatabaseChanges failures count toward the export",
            [
                s(10, .willSendChanges), s(11, .sentDatabaseChanges(savedZones: 0, deletedZones: 0, failures: failures(err(.networkUnavailable)))),
                s(12, .didSendChanges),
            ],
            [
                .phase(.export, .failed(started: at(10), ended: at(12), error: transient(.networkUnavailable))), .summary(.retrying),
            ]),
        TransitionCase(
            "an unknown error code is actionable and labelled other",
            [s(10, .willSendChanges), s(11, sentRecords(saved: 0, deleted: 0, otherErr("myCustomFailure"))), s(12, .didSendChanges)],
            [
                .phase(
                    .export, .failed(started: at(10), ended: at(12), error: PhaseError(code: ErrorCode(name: name("myCustomFailure")), errorClass: .actionable))
                ),
                .errors(.export, .other, 1), .summary(.error),
            ]),
        TransitionCase(
            "an error event with an open cycle's phase counts toward that cycle",
            [s(10, .willSendChanges), s(11, .error(phase: .export, error: err(.quotaExceeded))), s(12, .didSendChanges)],
            [
                .phase(.export, .failed(started: at(10), ended: at(12), error: actionable(.quotaExceeded))),
                .errors(.export, ErrorCodeLabel(.quotaExceeded), 1),
            ]),
        TransitionCase(
            "an error event for a phase without an open cycle is only counted",
            [s(10, .willFetchChanges), s(11, .error(phase: .export, error: err(.quotaExceeded))), s(12, .didFetchChanges)],
            [
                .phase(.export, .notStarted), .phase(.import, .succeeded(started: at(10), ended: at(12))),
                .errors(.export, ErrorCodeLabel(.quotaExceeded), 1), .summary(.succeeded),
            ]),
        TransitionCase(
            "an error event without a phase changes no phase",
            [s(10, .willFetchChanges), s(11, .error(phase: nil, error: err(.quotaExceeded))), s(12, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(10), ended: at(12))), .errors(nil, ErrorCodeLabel(.quotaExceeded), 1),
                .errorSeriesCount(1),
            ]),
        TransitionCase(
            "an error event after the cycle closed does not reopen or fail it",
            [s(10, .willFetchChanges), s(12, .didFetchChanges), s(13, .error(phase: .import, error: err(.quotaExceeded)))],
            [
                .phase(.import, .succeeded(started: at(10), ended: at(12))), .errors(.import, ErrorCodeLabel(.quotaExceeded), 1),
            ]),
        TransitionCase(
            "import and export run independently",
            [s(10, .willFetchChanges), s(11, .willSendChanges), s(12, .didSendChanges)],
            [
                .phase(.import, .inProgress(since: at(10))), .phase(.export, .succeeded(started: at(11), ended: at(12))),
                .summary(.inProgress),
            ]),
        TransitionCase(
            "a success after a failure replaces it",
            [
                s(10, .willFetchChanges), s(11, .didFetchRecordZoneChanges(error: err(.zoneNotFound))), s(12, .didFetchChanges),
                s(20, .willFetchChanges), s(21, .didFetchChanges),
            ],
            [
                .phase(.import, .succeeded(started: at(20), ended: at(21))), .runs(.import, 2), .failures(.import, 1),
                .lastSuccess(.import, at(21)), .summary(.succeeded),
            ]),
        TransitionCase(
            "record counters add up across batches",
            [
                s(10, .fetchedDatabaseChanges(modifications: 1, deletions: 2)), s(11, .fetchedRecordZoneChanges(modifications: 10, deletions: 20)),
                s(12, sentRecords(saved: 5, deleted: 6)), s(13, sentRecords(saved: 1, deleted: 1)),
                s(14, .sentDatabaseChanges(savedZones: 7, deletedZones: 7, failures: FailureDigest())),
            ],
            [
                .fetched(changed: 11, deleted: 22), .sent(changed: 6, deleted: 7),
            ]),
    ]

    @Test("cycles", arguments: cases)
    func cycle(_ testCase: TransitionCase) {
        testCase.run()
    }
}

@Suite("PairState: setup")
struct PairStateSetupTests {
    static let cases: [TransitionCase] = [
        TransitionCase(
            "engineStarted starts setup", [s(0, engineStarted())],
            [
                .phase(.setup, .inProgress(since: at(0))), .summary(.notStarted), .up(true),
            ]),
        TransitionCase(
            "accountStatus available completes a CKSyncEngine setup", [s(0, engineStarted()), s(5, .accountStatus(.available))],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(5))), .runs(.setup, 1), .lastSuccess(.setup, at(5)), .account(.available),
            ]),
        TransitionCase(
            "accountStatus other than available does not complete setup", [s(0, engineStarted()), s(5, .accountStatus(.couldNotDetermine))],
            [
                .phase(.setup, .inProgress(since: at(0))), .account(.couldNotDetermine),
            ]),
        TransitionCase(
            "accountChange signIn does not complete setup", [s(0, engineStarted()), s(5, .accountChange(.signIn))],
            [
                .phase(.setup, .inProgress(since: at(0))), .account(.available),
            ]),
        TransitionCase(
            "accountChange switchAccounts does not complete setup", [s(0, engineStarted()), s(5, .accountChange(.switchAccounts))],
            [
                .phase(.setup, .inProgress(since: at(0)))
            ]),
        TransitionCase(
            "a completed import cycle completes setup", [s(0, engineStarted()), s(3, .willFetchChanges), s(8, .didFetchChanges)],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(8))), .phase(.import, .succeeded(started: at(3), ended: at(8))),
            ]),
        TransitionCase(
            "a will alone does not complete setup",
            [s(0, engineStarted()), s(3, .willFetchChanges), s(4, .fetchedDatabaseChanges(modifications: 1, deletions: 0))],
            [
                .phase(.setup, .inProgress(since: at(0)))
            ]),
        TransitionCase(
            "a completed export cycle completes setup", [s(0, engineStarted()), s(3, .willSendChanges), s(9, .didSendChanges)],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(9)))
            ]),
        TransitionCase(
            "a failed cycle still completes setup (whatever its outcome)",
            [s(0, engineStarted()), s(3, .willSendChanges), s(4, sentRecords(saved: 0, deleted: 0, err(.quotaExceeded))), s(9, .didSendChanges)],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(9))),
                .phase(.export, .failed(started: at(3), ended: at(9), error: actionable(.quotaExceeded))), .summary(.error),
            ]),
        TransitionCase(
            "a zero-length cycle completes setup", [s(0, engineStarted()), s(7, .didFetchChanges)],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(7)))
            ]),
        TransitionCase(
            "setup completes only once: the first of account and cycle",
            [s(0, engineStarted()), s(5, .accountStatus(.available)), s(6, .willFetchChanges), s(9, .didFetchChanges), s(10, .accountStatus(.available))],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(5))), .runs(.setup, 1),
            ]),
        TransitionCase(
            "an actionable error with phase setup fails setup",
            [s(0, engineStarted()), s(4, .error(phase: .setup, error: err(.badContainer)))],
            [
                .phase(.setup, .failed(started: at(0), ended: at(4), error: actionable(.badContainer))), .failures(.setup, 1),
                .errors(.setup, ErrorCodeLabel(.badContainer), 1), .summary(.error),
            ]),
        TransitionCase(
            "a failed setup is not completed later by an available account",
            [s(0, engineStarted()), s(4, .error(phase: .setup, error: err(.missingEntitlement))), s(6, .accountStatus(.available))],
            [
                .phase(.setup, .failed(started: at(0), ended: at(4), error: actionable(.missingEntitlement))), .runs(.setup, 1),
            ]),
        TransitionCase(
            "a transient error with phase setup is counted and setup goes on",
            [s(0, engineStarted()), s(4, .error(phase: .setup, error: err(.networkFailure))), s(6, .accountStatus(.available))],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(6))), .errors(.setup, ErrorCodeLabel(.networkFailure), 1),
            ]),
        TransitionCase(
            "a conflict error with phase setup is only counted",
            [s(0, engineStarted()), s(4, .error(phase: .setup, error: err(.serverRecordChanged)))],
            [
                .phase(.setup, .inProgress(since: at(0))), .errors(.setup, ErrorCodeLabel(.serverRecordChanged), 1),
            ]),
        TransitionCase(
            "an actionable setup error without engineStarted fails setup at that moment",
            [s(0, .heartbeat), s(4, .error(phase: .setup, error: err(.quotaExceeded)))],
            [
                .phase(.setup, .failed(started: at(4), ended: at(4), error: actionable(.quotaExceeded)))
            ]),
        TransitionCase(
            "a second engineStarted restarts setup", [s(0, engineStarted()), s(5, .accountStatus(.available)), s(20, engineStarted())],
            [
                .phase(.setup, .inProgress(since: at(20))), .runs(.setup, 1), .lastSuccess(.setup, at(5)),
            ]),
        TransitionCase(
            "containerEvent setup: start, then end succeeded",
            [s(0, container(.setup, id: "S", started: 0)), s(5, container(.setup, id: "S", started: 0, ended: 5, succeeded: true))],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(5))), .runs(.setup, 1),
            ]),
        TransitionCase(
            "once a containerEvent setup is seen, engineStarted no longer touches setup",
            [s(0, container(.setup, id: "S", started: 0)), s(5, container(.setup, id: "S", started: 0, ended: 5)), s(10, engineStarted())],
            [
                .phase(.setup, .succeeded(started: at(0), ended: at(5)))
            ]),
        TransitionCase(
            "a containerEvent setup start takes setup over from engineStarted",
            [s(0, engineStarted()), s(1, container(.setup, id: "S", started: 1)), s(3, .accountStatus(.available))],
            [
                .phase(.setup, .inProgress(since: at(1)))
            ]),
        TransitionCase(
            "a containerEvent setup that follows engineStarted is not completed by a cycle",
            [s(0, engineStarted()), s(1, container(.setup, id: "S", started: 1)), s(2, .willFetchChanges), s(3, .didFetchChanges)],
            [
                .phase(.setup, .inProgress(since: at(1)))
            ]),
    ]

    @Test("setup", arguments: cases)
    func setup(_ testCase: TransitionCase) {
        testCase.run()
    }
}

@Suite("PairState: containerEvent")
struct PairStateContainerEventTests {
    static let cases: [TransitionCase] = [
        TransitionCase(
            "a start without ended opens the phase at its started time", [s(3, container(.import, id: "A", started: 1))],
            [
                .phase(.import, .inProgress(since: at(1))), .lastStart(.import, at(1)), .summary(.inProgress),
            ]),
        TransitionCase(
            "an end with succeeded true succeeds",
            [s(1, container(.export, id: "A", started: 1)), s(9, container(.export, id: "A", started: 1, ended: 9, succeeded: true))],
            [
                .phase(.export, .succeeded(started: at(1), ended: at(9))), .lastSuccess(.export, at(9)), .runs(.export, 1), .summary(.succeeded),
            ]),
        TransitionCase(
            "an end without succeeded and without error succeeds",
            [s(1, container(.import, id: "A", started: 1)), s(9, container(.import, id: "A", started: 1, ended: 9))],
            [
                .phase(.import, .succeeded(started: at(1), ended: at(9)))
            ]),
        TransitionCase(
            "an end without succeeded but with an actionable error fails",
            [s(1, container(.import, id: "A", started: 1)), s(9, container(.import, id: "A", started: 1, ended: 9, error: err(.quotaExceeded)))],
            [
                .phase(.import, .failed(started: at(1), ended: at(9), error: actionable(.quotaExceeded))), .failures(.import, 1),
                .errors(.import, ErrorCodeLabel(.quotaExceeded), 1), .summary(.error),
            ]),
        TransitionCase(
            "an end without succeeded but with a transient error fails as retrying",
            [s(1, container(.export, id: "A", started: 1)), s(9, container(.export, id: "A", started: 1, ended: 9, error: err(.networkFailure)))],
            [
                .phase(.export, .failed(started: at(1), ended: at(9), error: transient(.networkFailure))), .summary(.retrying),
            ]),
        TransitionCase(
            "succeeded false without error fails with code unknown, actionable",
            [s(1, container(.export, id: "A", started: 1)), s(9, container(.export, id: "A", started: 1, ended: 9, succeeded: false))],
            [
                .phase(.export, .failed(started: at(1), ended: at(9), error: actionable(.unknown))), .errors(.export, ErrorCodeLabel(.unknown), 1),
                .summary(.error),
            ]),
        TransitionCase(
            "succeeded false with a conflict code counts as actionable",
            [s(9, container(.export, id: "A", started: 1, ended: 9, succeeded: false, error: err(.serverRecordChanged)))],
            [
                .phase(.export, .failed(started: at(1), ended: at(9), error: actionable(.serverRecordChanged))),
                .errors(.export, ErrorCodeLabel(.serverRecordChanged), 1), .summary(.error),
            ]),
        TransitionCase(
            "succeeded false with a transient code is retrying",
            [s(9, container(.setup, id: "A", started: 1, ended: 9, succeeded: false, error: err(.accountTemporarilyUnavailable)))],
            [
                .phase(.setup, .failed(started: at(1), ended: at(9), error: transient(.accountTemporarilyUnavailable))), .summary(.retrying),
            ]),
        TransitionCase(
            "succeeded true wins over an error: counted, phase succeeded",
            [s(9, container(.import, id: "A", started: 1, ended: 9, succeeded: true, error: err(.quotaExceeded)))],
            [
                .phase(.import, .succeeded(started: at(1), ended: at(9))), .errors(.import, ErrorCodeLabel(.quotaExceeded), 1), .failures(.import, 0),
            ]),
        TransitionCase(
            "an end without a start records the cycle it reports",
            [s(0, .heartbeat), s(9, container(.import, id: "A", started: 4, ended: 9, succeeded: true))],
            [
                .phase(.import, .succeeded(started: at(4), ended: at(9))), .lastStart(.import, at(4)), .runs(.import, 1),
            ]),
        TransitionCase(
            "a second start with another id restarts the phase",
            [s(1, container(.import, id: "A", started: 1)), s(5, container(.import, id: "B", started: 5))],
            [
                .phase(.import, .inProgress(since: at(5))), .lastStart(.import, at(5)),
            ]),
        TransitionCase(
            "a late end with a different id is counted but does not close the newer cycle",
            [
                s(1, container(.import, id: "A", started: 1)), s(5, container(.import, id: "B", started: 5)),
                s(7, container(.import, id: "A", started: 1, ended: 7, succeeded: true)),
            ],
            [
                .phase(.import, .inProgress(since: at(5))), .runs(.import, 1), .lastSuccess(.import, at(7)), .lastStart(.import, at(5)),
                .summary(.inProgress),
            ]),
        TransitionCase(
            "a late failed end with a different id counts a failure but leaves the newer cycle open",
            [
                s(1, container(.import, id: "A", started: 1)), s(5, container(.import, id: "B", started: 5)),
                s(7, container(.import, id: "A", started: 1, ended: 7, error: err(.quotaExceeded))),
            ],
            [
                // The latest completed operation failed: the phase is failing while B runs.
                .phase(.import, .inProgress(since: at(5))), .runs(.import, 1), .failures(.import, 1),
                .errors(.import, ErrorCodeLabel(.quotaExceeded), 1), .summary(.error),
                .failing(.import, OutstandingFailure(since: at(7), error: actionable(.quotaExceeded))),
            ]),
        TransitionCase(
            "after a late end, the newer cycle's own end closes it",
            [
                s(1, container(.import, id: "A", started: 1)), s(5, container(.import, id: "B", started: 5)),
                s(7, container(.import, id: "A", started: 1, ended: 7, succeeded: true)),
                s(9, container(.import, id: "B", started: 5, ended: 9, succeeded: true)),
            ],
            [
                .phase(.import, .succeeded(started: at(5), ended: at(9))), .runs(.import, 2), .lastSuccess(.import, at(9)),
            ]),
        TransitionCase(
            "containerEvent phases run side by side",
            [
                s(1, container(.setup, id: "S", started: 1)), s(2, container(.setup, id: "S", started: 1, ended: 2)),
                s(3, container(.import, id: "I", started: 3)), s(4, container(.export, id: "E", started: 4)),
                s(6, container(.export, id: "E", started: 4, ended: 6)),
            ],
            [
                .phase(.setup, .succeeded(started: at(1), ended: at(2))), .phase(.import, .inProgress(since: at(3))),
                .phase(.export, .succeeded(started: at(4), ended: at(6))), .summary(.inProgress),
            ]),
    ]

    @Test("containerEvent", arguments: cases)
    func containerEvent(_ testCase: TransitionCase) {
        testCase.run()
    }
}

@Suite("PairState: account, network, pending and throttle")
struct PairStateConditionTests {
    static let cases: [TransitionCase] = [
        TransitionCase("accountStatus available", [s(0, .accountStatus(.available))], [.account(.available)]),
        TransitionCase("accountStatus noAccount", [s(0, .accountStatus(.noAccount))], [.account(.noAccount), .summary(.accountNotAvailable)]),
        TransitionCase("accountStatus restricted", [s(0, .accountStatus(.restricted))], [.account(.restricted), .summary(.accountNotAvailable)]),
        TransitionCase(
            "accountStatus couldNotDetermine", [s(0, .accountStatus(.couldNotDetermine))], [.account(.couldNotDetermine), .summary(.accountNotAvailable)]),
        TransitionCase(
            "accountStatus temporarilyUnavailable", [s(0, .accountStatus(.temporarilyUnavailable))],
            [.account(.temporarilyUnavailable), .summary(.accountNotAvailable)]),
        TransitionCase(
            "accountChange signOut → no_account", [s(0, .accountStatus(.available)), s(1, .accountChange(.signOut))],
            [.account(.noAccount), .accountChanges(.signOut, 1), .summary(.accountNotAvailable)]),
        TransitionCase(
            "accountChange signIn → available", [s(0, .accountStatus(.noAccount)), s(1, .accountChange(.signIn))],
            [.account(.available), .accountChanges(.signIn, 1), .summary(.notStarted)]),
        TransitionCase(
            "accountChange switchAccounts → available", [s(0, .accountChange(.switchAccounts)), s(1, .accountChange(.switchAccounts))],
            [.account(.available), .accountChanges(.switchAccounts, 2), .accountChanges(.signIn, 0)]),
        TransitionCase("the latest account word wins", [s(0, .accountChange(.signIn)), s(1, .accountStatus(.restricted))], [.account(.restricted)]),
        TransitionCase("networkStatus false → unavailable", [s(0, .networkStatus(available: false))], [.network(.unavailable), .summary(.noNetwork)]),
        TransitionCase(
            "networkStatus true → available", [s(0, .networkStatus(available: false)), s(1, .networkStatus(available: true))],
            [.network(.available), .summary(.notStarted)]),
        TransitionCase("stateUpdate sets both pending counts", [s(0, pending(3, 2))], [.pending(recordZone: 3, database: 2)]),
        TransitionCase(
            "stateUpdate with one count keeps the other", [s(0, pending(3, 2)), s(1, pending(nil, 5)), s(2, pending(7, nil))],
            [.pending(recordZone: 7, database: 5)]),
        TransitionCase("stateUpdate with nothing changes nothing", [s(0, pending(3, 2)), s(1, pending(nil, nil))], [.pending(recordZone: 3, database: 2)]),
        TransitionCase("stateUpdate zeros clear pending", [s(0, pending(3, 2)), s(1, pending(0, 0))], [.pending(recordZone: 0, database: 0)]),
        TransitionCase("accountChange signIn resets pending", [s(0, pending(3, 2)), s(1, .accountChange(.signIn))], [.pending(recordZone: 0, database: 0)]),
        TransitionCase(
            "accountChange switchAccounts resets pending", [s(0, pending(3, 2)), s(1, .accountChange(.switchAccounts))],
            [.pending(recordZone: 0, database: 0)]),
        TransitionCase("accountChange signOut keeps pending", [s(0, pending(3, 2)), s(1, .accountChange(.signOut))], [.pending(recordZone: 3, database: 2)]),
        TransitionCase("accountStatus keeps pending", [s(0, pending(3, 2)), s(1, .accountStatus(.available))], [.pending(recordZone: 3, database: 2)]),
        TransitionCase(
            "an error with retryAfter throttles until event time + retryAfter",
            [s(10, .error(phase: nil, error: err(.requestRateLimited, retryAfter: 30)))], now: at(20),
            [
                .throttledUntil(at(40)), .activeThrottle(at(40)), .summary(.throttled),
            ]),
        TransitionCase(
            "the throttle is over at its end: null in status",
            [s(10, .error(phase: nil, error: err(.requestRateLimited, retryAfter: 30)))], now: at(40),
            [
                .throttledUntil(at(40)), .activeThrottle(nil), .summary(.notStarted),
            ]),
        TransitionCase(
            "the throttle runs up to its last microsecond",
            [s(10, .error(phase: nil, error: err(.requestRateLimited, retryAfter: 30)))], now: justBefore(40),
            [
                .activeThrottle(at(40)), .summary(.throttled),
            ]),
        TransitionCase(
            "a later retryAfter replaces an earlier one, even when shorter",
            [
                s(10, .error(phase: nil, error: err(.requestRateLimited, retryAfter: 300))), s(20, .error(phase: nil, error: err(.zoneBusy, retryAfter: 5))),
            ], now: at(26), [.throttledUntil(at(25)), .activeThrottle(nil)]),
        TransitionCase(
            "retryAfter throttles whatever the error's class (actionable)",
            [s(10, .error(phase: .export, error: err(.quotaExceeded, retryAfter: 60)))], now: at(11), [.activeThrottle(at(70))]),
        TransitionCase(
            "retryAfter throttles whatever the error's class (conflict)",
            [s(10, .error(phase: nil, error: err(.serverRecordChanged, retryAfter: 60)))], now: at(11), [.activeThrottle(at(70)), .summary(.throttled)]),
        TransitionCase(
            "retryAfter 0 sets a throttle that is already over",
            [s(10, .error(phase: nil, error: err(.zoneBusy, retryAfter: 0)))], now: at(10), [.throttledUntil(at(10)), .activeThrottle(nil)]),
        TransitionCase(
            "the last retryAfter of a failure list throttles",
            [
                s(10, .willSendChanges), s(11, sentRecords(saved: 0, deleted: 0, err(.zoneBusy, retryAfter: 100), err(.requestRateLimited, retryAfter: 20))),
            ], now: at(12), [.throttledUntil(at(31)), .summary(.throttled)]),
        TransitionCase(
            "a zone error's retryAfter throttles",
            [
                s(10, .willFetchChanges), s(11, .didFetchRecordZoneChanges(error: err(.zoneBusy, retryAfter: 15))),
            ], now: at(12), [.throttledUntil(at(26))]),
        TransitionCase(
            "a containerEvent error's retryAfter throttles from the event time",
            [s(12, container(.export, id: "A", started: 1, ended: 9, error: err(.requestRateLimited, retryAfter: 10)))], now: at(12),
            [
                .throttledUntil(at(22)), .summary(.throttled),
            ]),
        TransitionCase(
            "errors without retryAfter leave the throttle alone",
            [
                s(10, .error(phase: nil, error: err(.requestRateLimited, retryAfter: 30))), s(15, .error(phase: nil, error: err(.networkFailure))),
            ], now: at(16), [.throttledUntil(at(40))]),
    ]

    @Test("conditions", arguments: cases)
    func condition(_ testCase: TransitionCase) {
        testCase.run()
    }
}

@Suite("PairState: liveness")
struct PairStateLivenessTests {
    static let cases: [TransitionCase] = [
        TransitionCase(
            "without a heartbeat promise an engine stays up however long it is silent", [s(0, engineStarted())], now: at(1_000_000),
            [
                .up(true), .down(false),
            ]),
        TransitionCase(
            "with heartbeats every 10 s it is up just before 30 s of silence",
            [s(0, engineStarted(heartbeat: 10))], now: justBefore(30), [.up(true), .down(false), .summary(.notStarted)]),
        TransitionCase(
            "with heartbeats every 10 s it is down at exactly 30 s of silence (inclusive)",
            [s(0, engineStarted(heartbeat: 10))], now: at(30), [.up(false), .down(true), .summary(.engineDown)]),
        TransitionCase(
            "any event, not only a heartbeat, counts as being heard from",
            [s(0, engineStarted(heartbeat: 10)), s(25, pending(1, 0))], now: at(54), [.up(true), .lastEvent(at(25))]),
        TransitionCase("a heartbeat restarts the 3× window", [s(0, engineStarted(heartbeat: 10)), s(20, .heartbeat)], now: at(50), [.down(true)]),
        TransitionCase(
            "an event after being down makes the engine up again",
            [s(0, engineStarted(heartbeat: 10)), s(100, .heartbeat)], now: at(100), [.up(true), .down(false)]),
        TransitionCase(
            "a fractional interval: down after 3 × 0.5 s", [s(0, .engineStarted(heartbeatInterval: TimeSpan(microseconds: 500_000)))], now: at(2),
            [
                .down(true)
            ]),
        TransitionCase(
            "engineStarted without heartbeatSeconds withdraws the promise",
            [s(0, engineStarted(heartbeat: 10)), s(5, engineStarted())], now: at(500), [.up(true)]),
        TransitionCase(
            "each engineStarted states the promise afresh",
            [s(0, engineStarted(heartbeat: 100)), s(5, engineStarted(heartbeat: 1))], now: at(8), [.down(true)]),
        TransitionCase(
            "engineStopped: stopped, not up, summary stopped", [s(0, engineStarted(heartbeat: 10)), s(5, .engineStopped)], now: at(6),
            [
                .stopped(true), .up(false), .down(false), .summary(.stopped),
            ]),
        TransitionCase(
            "engineStopped ends the heartbeat promise: never down afterwards",
            [s(0, engineStarted(heartbeat: 10)), s(5, .engineStopped)], now: at(10_000), [.down(false), .summary(.stopped)]),
        TransitionCase(
            "any event after engineStopped means the engine runs again",
            [s(0, engineStarted(heartbeat: 10)), s(5, .engineStopped), s(50, .willFetchChanges)], now: at(10_000),
            [
                .stopped(false), .up(true), .down(false), .phase(.import, .inProgress(since: at(50))),
            ]),
        TransitionCase("lastEvent never goes backwards", [s(50, .heartbeat), s(20, .heartbeat)], now: at(50), [.lastEvent(at(50))]),
    ]

    @Test("liveness", arguments: cases)
    func liveness(_ testCase: TransitionCase) {
        testCase.run()
    }

    @Test("a pair tied to a connection is down once it closes, and up when heard from again")
    func connectionTie() {
        let steps = [s(0, engineStarted(), connection: 7), s(1, .willFetchChanges), closed(2)]
        let state = pairState(steps)
        #expect(state.isDown(at: at(2)))
        #expect(!state.isUp(at: at(2)))
        #expect(state.evaluate(at: at(2), thresholds: .defaults).summary == .engineDown)
        let again = pairState(steps + [s(3, .heartbeat)])
        #expect(again.isUp(at: at(3)))
        #expect(again.evaluate(at: at(3), thresholds: .defaults).summary == .inProgress)
    }

    @Test("a pair stopped before its connection closes stays stopped, not down")
    func stoppedThenClosed() {
        let state = pairState([s(0, engineStarted(), connection: 7), s(1, .engineStopped), closed(2)])
        #expect(!state.isDown(at: at(2)))
        #expect(state.evaluate(at: at(2), thresholds: .defaults).summary == .stopped)
    }

    /// A batch job's run as `syncmon wrap` reports it: its connection, its promise and its
    /// export, at the times given.
    static func run(connection: UInt64, from start: Int64, succeeded: Bool?, endedAt end: Int64, runEnded: Bool = true) -> [Step] {
        var steps = [
            s(start, runStarted(heartbeat: 10), connection: connection),
            s(start, container(.export, id: "run\(start)", started: start), connection: connection),
            s(start + 5, sentRecords(saved: 2), connection: connection),
        ]
        steps += heartbeats(from: start + 10, through: end - 1).map { s($0.time, .heartbeat, connection: connection) }
        if let succeeded {
            let error: SyncError? = succeeded ? nil : err(.directoryNotFound)
            steps.append(s(end, container(.export, id: "run\(start)", started: start, ended: end, succeeded: succeeded, error: error), connection: connection))
        }
        if runEnded { steps.append(s(end, .runEnded, connection: connection)) }
        return steps
    }

    static let runCases: [TransitionCase] = [
        TransitionCase(
            "runStarted ties and promises like engineStarted, but opens no setup",
            [s(0, runStarted(heartbeat: 10), connection: 3)], now: at(5),
            [
                .phase(.setup, .notStarted), .up(true), .summary(.notStarted),
            ]),
        TransitionCase(
            "a run whose heartbeats stop is down after 3 × heartbeatSeconds",
            run(connection: 3, from: 0, succeeded: nil, endedAt: 40, runEnded: false), now: justBefore(60), [.up(true), .summary(.inProgress)]),
        TransitionCase(
            "a run whose heartbeats stop is down at 3 × heartbeatSeconds (inclusive)",
            run(connection: 3, from: 0, succeeded: nil, endedAt: 40, runEnded: false), now: at(60), [.down(true), .summary(.engineDown)]),
        TransitionCase(
            "after runEnded a succeeded job stays succeeded however long nothing comes",
            run(connection: 3, from: 0, succeeded: true, endedAt: 40) + [closed(41)], now: at(86_400),
            [
                .up(true), .stopped(false), .summary(.succeeded), .phase(.setup, .notStarted), .stalls([]),
            ]),
        TransitionCase(
            "after runEnded a failed job stays error until a run succeeds",
            run(connection: 3, from: 0, succeeded: false, endedAt: 40) + [closed(41)], now: at(86_400),
            [
                .up(true), .summary(.error), .failing(.export, OutstandingFailure(since: at(40), error: actionable(.directoryNotFound))),
            ]),
        TransitionCase(
            "the next run that succeeds clears the failure",
            run(connection: 3, from: 0, succeeded: false, endedAt: 40) + [closed(41)]
                + run(connection: 4, from: 1000, succeeded: true, endedAt: 1040) + [closed(1041)], now: at(2000),
            [
                .summary(.succeeded), .failing(.export, nil), .runs(.export, 2),
            ]),
        TransitionCase(
            "no not_syncing after an export-only run, which engineStarted would raise",
            run(connection: 3, from: 0, succeeded: true, endedAt: 40), now: at(1000), thresholds: only(.notSyncing, 60),
            [
                .stalls([]), .summary(.succeeded),
            ]),
        TransitionCase(
            "progress inside the run keeps no_progress away; silence in it raises it",
            run(connection: 3, from: 0, succeeded: nil, endedAt: 29, runEnded: false), now: at(25), thresholds: only(.noProgress, 20),
            [
                .stalls([.noProgress]), .summary(.stalled),
            ]),
        TransitionCase(
            "the dead man's switch: no run for longer than no-recent-export-after",
            run(connection: 3, from: 0, succeeded: true, endedAt: 40), now: at(40 + 26 * 3600), thresholds: only(.noRecentExport, 26 * 3600),
            [
                .stalls([.noRecentExport]), .summary(.stalled), .up(true),
            ]),
    ]

    @Test("batch runs (runStarted, runEnded)", arguments: runCases)
    func batchRuns(_ testCase: TransitionCase) {
        testCase.run()
    }

    @Test("a run's connection closing before runEnded is a crash: engine_down until the next run")
    func runKilled() {
        let killed = Self.run(connection: 3, from: 0, succeeded: nil, endedAt: 30, runEnded: false) + [closed(31)]
        let state = pairState(killed)
        #expect(state.isDown(at: at(31)))
        #expect(state.evaluate(at: at(31), thresholds: .defaults).summary == .engineDown)
        // The next run is heard from: up again, and the stall clocks restart then.
        let next = pairState(killed + [s(500, runStarted(heartbeat: 10), connection: 4)])
        #expect(next.isUp(at: at(500)))
        #expect(next.evaluate(at: at(500), thresholds: .defaults).summary == .inProgress)
    }

    @Test("a run's connection closing after runEnded unties nothing: the pair stays up")
    func runEndedThenClosed() {
        let state = pairState(Self.run(connection: 3, from: 0, succeeded: true, endedAt: 30) + [closed(31)])
        #expect(state.liveness.connection == nil)
        #expect(!state.isDown(at: at(31)))
        #expect(state.liveness.heartbeat == nil)
    }

    @Test("through the monitor: a finished run reports no change later; a killed one reports engine_down at once")
    func runsThroughTheMonitor() {
        func monitor(_ steps: [Step]) -> (Monitor, [StatusChange]) {
            var monitor = Monitor()
            var changes: [StatusChange] = []
            for step in steps {
                switch step.action {
                case .event(let payload, _, let connection):
                    monitor.apply(
                        Event(engine: notes, time: at(step.time), payload: payload), at: at(step.time), connection: connection, now: at(step.time),
                        changes: &changes)
                case .connectionClosed:
                    monitor.connectionClosed(3)
                    changes += monitor.changes(at: at(step.time))
                }
            }
            return (monitor, changes)
        }
        var (finished, _) = monitor(Self.run(connection: 3, from: 0, succeeded: true, endedAt: 30) + [closed(31)])
        #expect(finished.changes(at: at(90_000)).isEmpty)
        #expect(finished.evaluate(notesKey, at: at(90_000))?.summary == .succeeded)
        let (_, killed) = monitor(Self.run(connection: 3, from: 0, succeeded: nil, endedAt: 30, runEnded: false) + [closed(31)])
        #expect(killed.last.map { $0.kind == .summaryChanged(from: .inProgress) && $0.evaluation.summary == .engineDown } == true)
    }

    @Test("a pair that never sent engineStarted is not tied to its connection")
    func untied() {
        let state = pairState([s(0, .willFetchChanges, connection: 7), closed(2)])
        #expect(state.liveness.connection == nil)
        #expect(state.isUp(at: at(2)))
    }
}
