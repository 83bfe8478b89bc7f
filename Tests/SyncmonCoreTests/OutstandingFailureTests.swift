import Foundation
import SyncmonCore
import Testing

/// A failure stays the verdict while retries run, until a cycle of that phase succeeds
/// (docs/protocol.md, "Outstanding failure"; docs/metrics.md, `syncmon_status`).
@Suite("PairState: outstanding failures")
struct OutstandingFailureTests {
    /// An export cycle from `start` to `start + 1` that fails with `error`.
    static func failedExport(_ start: Int64, _ error: SyncError = err(.quotaExceeded)) -> [Step] {
        [s(start, .willSendChanges), s(start, sentRecords(saved: 0, deleted: 0, error)), s(start + 1, .didSendChanges)]
    }

    /// An export cycle from `start` to `start + 1` that succeeds.
    static func succeededExport(_ start: Int64) -> [Step] {
        [s(start, .willSendChanges), s(start, sentRecords(saved: 1)), s(start + 1, .didSendChanges)]
    }

    static let quota = OutstandingFailure(since: at(11), error: actionable(.quotaExceeded))

    static let cases: [TransitionCase] = [
        TransitionCase(
            "a failed cycle is failing", failedExport(10),
            [
                .phase(.export, .failed(started: at(10), ended: at(11), error: actionable(.quotaExceeded))),
                .failing(.export, quota), .summary(.error),
            ]),
        TransitionCase(
            "a retry in progress keeps the failure: error, not in_progress",
            failedExport(10) + [s(15, .willSendChanges)],
            [
                .phase(.export, .inProgress(since: at(15))), .failing(.export, quota), .summary(.error),
            ]),
        TransitionCase(
            "progress inside the retry does not clear it either",
            failedExport(10) + [s(15, .willSendChanges), s(16, sentRecords(saved: 5))],
            [
                .phase(.export, .inProgress(since: at(16 - 1))), .failing(.export, quota), .summary(.error),
            ]),
        TransitionCase(
            "failed retries keep the first failure's time and show the latest error",
            failedExport(10) + failedExport(20, err(.zoneNotFound)) + [s(30, .willSendChanges)],
            [
                .failing(.export, OutstandingFailure(since: at(11), error: actionable(.zoneNotFound))), .summary(.error),
                .failures(.export, 2),
            ]),
        TransitionCase(
            "a retry failing the same way without words keeps the words the failure had",
            failedExport(10, worded(.quotaExceeded, "Storage full")) + failedExport(20),
            [.failing(.export, OutstandingFailure(since: at(11), error: actionable(.quotaExceeded, "Storage full"))), .summary(.error)]),
        TransitionCase(
            "a retry with words of its own shows them",
            failedExport(10, worded(.quotaExceeded, "Storage full")) + failedExport(20, worded(.quotaExceeded, "Quota of 5 GB")),
            [.failing(.export, OutstandingFailure(since: at(11), error: actionable(.quotaExceeded, "Quota of 5 GB")))]),
        TransitionCase(
            "a retry failing differently without words shows none",
            failedExport(10, worded(.quotaExceeded, "Storage full")) + failedExport(20, err(.zoneNotFound)),
            [.failing(.export, OutstandingFailure(since: at(11), error: actionable(.zoneNotFound)))]),
        TransitionCase(
            "a succeeded cycle of the phase clears it", failedExport(10) + succeededExport(20),
            [
                .phase(.export, .succeeded(started: at(20), ended: at(21))), .failing(.export, nil), .summary(.succeeded),
            ]),
        TransitionCase(
            "a success of another phase does not clear it",
            failedExport(10) + [s(20, .willFetchChanges), s(21, .didFetchChanges)],
            [
                .phase(.import, .succeeded(started: at(20), ended: at(21))), .failing(.export, quota), .summary(.error),
            ]),
        TransitionCase(
            "after recovery, a new failure starts a new since",
            failedExport(10) + succeededExport(20) + failedExport(30),
            [
                .failing(.export, OutstandingFailure(since: at(31), error: actionable(.quotaExceeded))), .summary(.error),
            ]),
        TransitionCase(
            "a transient failure under retry is retrying at every moment",
            failedExport(10, err(.networkFailure)) + [s(15, .willSendChanges)],
            [
                .failing(.export, OutstandingFailure(since: at(11), error: transient(.networkFailure))), .summary(.retrying),
            ]),
        TransitionCase(
            "a transient retry after an actionable failure shows the latest, transient error",
            failedExport(10) + failedExport(20, err(.networkFailure)) + [s(25, .willSendChanges)],
            [
                .failing(.export, OutstandingFailure(since: at(11), error: transient(.networkFailure))), .summary(.retrying),
            ]),
        TransitionCase(
            "an actionable failure in one phase wins over a transient one in another",
            failedExport(10, err(.networkFailure))
                + [s(20, .willFetchChanges), s(20, .didFetchRecordZoneChanges(error: err(.zoneNotFound))), s(21, .didFetchChanges)],
            [
                .failing(.import, OutstandingFailure(since: at(21), error: actionable(.zoneNotFound))), .summary(.error),
            ]),
        TransitionCase(
            "a throttle ahead of a transient failure still reads throttled",
            failedExport(10, err(.requestRateLimited, retryAfter: 60)) + [s(15, .willSendChanges)],
            [
                .summary(.throttled)
            ]),
        TransitionCase(
            "a conflict alone fails nothing",
            [
                s(10, .willSendChanges), s(10, sentRecords(saved: 0, deleted: 0, err(.serverRecordChanged))), s(11, .didSendChanges),
            ],
            [
                .failing(.export, nil), .summary(.succeeded),
            ]),
        TransitionCase(
            "an error event outside a cycle changes no phase and sets no failure",
            succeededExport(10) + [s(20, .error(phase: .export, error: err(.quotaExceeded)))],
            [
                .failing(.export, nil), .summary(.succeeded),
            ]),
        TransitionCase(
            "containerEvent: a failed operation fails until one succeeds",
            [
                s(1, container(.export, id: "A", started: 1)), s(2, container(.export, id: "A", started: 1, ended: 2, error: err(.quotaExceeded))),
                s(5, container(.export, id: "B", started: 5)),
            ],
            [
                .phase(.export, .inProgress(since: at(5))),
                .failing(.export, OutstandingFailure(since: at(2), error: actionable(.quotaExceeded))), .summary(.error),
            ]),
        TransitionCase(
            "containerEvent: a transient failure under retry is retrying",
            [
                s(1, container(.import, id: "A", started: 1, ended: 2, error: err(.networkFailure))),
                s(5, container(.import, id: "B", started: 5)),
            ],
            [
                .failing(.import, OutstandingFailure(since: at(2), error: transient(.networkFailure))), .summary(.retrying),
            ]),
        TransitionCase(
            "containerEvent: a failed end without an error fails as unknown and stays",
            [
                s(1, container(.export, id: "A", started: 1, ended: 2, succeeded: false)), s(5, container(.export, id: "B", started: 5)),
            ],
            [
                .summary(.error)
            ]),
        TransitionCase(
            "containerEvent: the next operation's success clears it",
            [
                s(1, container(.export, id: "A", started: 1, ended: 2, error: err(.quotaExceeded))),
                s(5, container(.export, id: "B", started: 5)), s(6, container(.export, id: "B", started: 5, ended: 6, succeeded: true)),
            ],
            [
                .failing(.export, nil), .summary(.succeeded),
            ]),
        // A oneshot unit whose rules read the tool's own failure, then its exit status (rclone
        // bisync's "Must run --resync", then exit 2): one run, failing with the tool's words.
        TransitionCase(
            "containerEvent: a failure the lines ended inside the operation keeps its code over the end's, counted once",
            [s(1, container(.export, id: "R", started: 1))] + failedExport(2)
                + [s(4, container(.export, id: "R", started: 1, ended: 4, error: otherErr("uncategorizedError")))],
            [
                .phase(.export, .failed(started: at(2), ended: at(3), error: actionable(.quotaExceeded))),
                .failing(.export, OutstandingFailure(since: at(3), error: actionable(.quotaExceeded))),
                .runs(.export, 1), .failures(.export, 1), .summary(.error),
            ]),
        TransitionCase(
            "containerEvent: lines that ended in success, then a failed operation: the failure is news",
            [s(1, container(.export, id: "R", started: 1))] + succeededExport(2)
                + [s(4, container(.export, id: "R", started: 1, ended: 4, error: err(.quotaExceeded)))],
            [
                .failing(.export, OutstandingFailure(since: at(4), error: actionable(.quotaExceeded))), .summary(.error),
            ]),
        TransitionCase(
            "containerEvent: lines that ended in success inside a succeeded operation: one run",
            [s(1, container(.export, id: "R", started: 1))] + succeededExport(2)
                + [s(4, container(.export, id: "R", started: 1, ended: 4, succeeded: true))],
            [
                .phase(.export, .succeeded(started: at(2), ended: at(3))), .runs(.export, 1), .summary(.succeeded),
            ]),
        TransitionCase(
            "containerEvent: operations of no length in the same instant are each their own",
            [
                s(1, container(.export, id: "A", started: 1, ended: 1, error: err(.quotaExceeded))),
                s(1, container(.export, id: "B", started: 1, ended: 1, succeeded: true)),
            ],
            [
                .failing(.export, nil), .runs(.export, 2), .summary(.succeeded),
            ]),
        TransitionCase(
            "containerEvent: a failure that ended before the operation began is not the operation's",
            failedExport(0) + [s(1, container(.export, id: "R", started: 1)), s(4, container(.export, id: "R", started: 1, ended: 4, succeeded: true))],
            [
                .failing(.export, nil), .runs(.export, 2), .summary(.succeeded),
            ]),
        TransitionCase(
            "setup: a failed setup stays failing through a restart until a setup succeeds",
            [
                s(0, engineStarted()), s(1, .error(phase: .setup, error: err(.quotaExceeded))), s(5, engineStarted()),
            ],
            [
                .phase(.setup, .inProgress(since: at(5))),
                .failing(.setup, OutstandingFailure(since: at(1), error: actionable(.quotaExceeded))), .summary(.error),
            ]),
        TransitionCase(
            "setup: an available account after the restart completes setup and clears it",
            [
                s(0, engineStarted()), s(1, .error(phase: .setup, error: err(.quotaExceeded))), s(5, engineStarted()),
                s(6, .accountStatus(.available)),
            ],
            [
                .phase(.setup, .succeeded(started: at(5), ended: at(6))), .failing(.setup, nil), .summary(.notStarted),
            ]),
        TransitionCase(
            "retry_loop still counts from the first transient error, and the failure does not stop it",
            failedExport(10, err(.networkFailure)) + failedExport(100, err(.networkFailure)) + [s(200, .willSendChanges)],
            now: at(1810), thresholds: only(.retryLoop, 1800),
            [
                .stalls([.retryLoop]), .summary(.stalled),
            ]),
        TransitionCase(
            "no_progress runs on the retry's own clock, not the failure's", failedExport(10) + [s(100, .willSendChanges)],
            now: at(399), thresholds: only(.noProgress, 300),
            [
                .stalls([]), .summary(.error),
            ]),
        TransitionCase(
            "a stopped engine reads stopped, whatever it was failing", failedExport(10) + [s(20, .engineStopped)],
            [
                .summary(.stopped), .failing(.export, quota),
            ]),
        TransitionCase(
            "no network wins over the failure", failedExport(10) + [s(20, .networkStatus(available: false))],
            [
                .summary(.noNetwork), .failing(.export, quota),
            ]),
    ]

    @Test("outstanding failures", arguments: cases)
    func transitions(_ testCase: TransitionCase) {
        testCase.run()
    }

    @Test("status JSON shows failing on the phase whatever its state")
    func failingInStatusJSON() throws {
        let state = pairState(Self.failedExport(10) + [s(15, .willSendChanges)])
        let key = PairKey(engine: name("notes"), database: .private)
        let row = StatusRow(key: key, state: state, at: at(20), thresholds: .defaults)
        let json = statusJSON(rows: [row], now: at(20))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let engine = try #require((document["engines"] as? [[String: Any]])?.first)
        let export = try #require(engine["export"] as? [String: Any])
        #expect(export["state"] as? String == "in_progress")
        let failing = try #require(export["failing"] as? [String: Any])
        #expect(failing["since"] as? String == RFC3339.format(at(11)))
        #expect((failing["error"] as? [String: Any])?["code"] as? String == "quotaExceeded")
        #expect((failing["error"] as? [String: Any])?["class"] as? String == "actionable")
        #expect((engine["import"] as? [String: Any])?["failing"] == nil)
        #expect(engine["summary"] as? String == "error")
    }

    @Test(
        "the table says what runs and since when it fails",
        arguments: [
            (PhaseState.inProgress(since: at(100)), Optional(quota), at(200), "in_progress, failing since 12:00 (quotaExceeded)"),
            (.failed(started: at(10), ended: at(11), error: actionable(.quotaExceeded)), quota, at(200), "failed since 12:00 (quotaExceeded)"),
            (.inProgress(since: at(100)), quota, at(200_000), "in_progress, failing since 2026-11-21 (quotaExceeded)"),
            (.succeeded(started: at(1), ended: at(2)), nil, at(200), "succeeded"),
            (.failed(started: at(10), ended: at(11), error: actionable(.quotaExceeded)), nil, at(200), "failed (quotaExceeded)"),
        ])
    func table(state: PhaseState, failing: OutstandingFailure?, now: Timestamp, expected: String) {
        #expect(StatusTable.describe(state, failing: failing, now: now) == expected)
    }

    @Test("persisted state keeps the failure; state saved before failures existed comes back failing")
    func persistence() throws {
        let state = pairState(Self.failedExport(10) + [s(15, .willSendChanges)])
        let restored = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(state))
        #expect(restored.exportPhase.failing == Self.quota)
        #expect(restored.evaluate(at: at(20), thresholds: .defaults).summary == .error)

        let recovered = pairState(Self.failedExport(10) + Self.succeededExport(20))
        let restoredRecovered = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(recovered))
        #expect(restoredRecovered.exportPhase.failing == nil)

        // A version 1.0 state file: a failed phase and no "failing" key.
        let failedOnly = pairState(Self.failedExport(10))
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(failedOnly)) as? [String: Any])
        var export = try #require(object["export"] as? [String: Any])
        export["failing"] = nil
        object["export"] = export
        let legacy = try JSONDecoder().decode(PairState.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(legacy.exportPhase.failing == Self.quota)
    }
}

/// An error with a message, as an engine or a unit's journal gives it.
private func worded(_ code: KnownErrorCode, _ message: String) -> SyncError {
    SyncError(code: ErrorCode(code), message: message)
}

/// An actionable phase error with a message.
private func actionable(_ code: KnownErrorCode, _ message: String) -> PhaseError {
    PhaseError(code: ErrorCode(code), errorClass: .actionable, message: message)
}
