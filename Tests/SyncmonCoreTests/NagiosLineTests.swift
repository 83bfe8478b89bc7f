import Foundation
import SyncmonCore
import Testing

/// `syncmon status --format nagios`: the one line of ``NagiosLine``.
@Suite("Nagios line")
struct NagiosLineTests {
    // MARK: Rows

    /// A pair key from "engine/database".
    static func key(_ pair: String) -> PairKey {
        let parts = pair.split(separator: "/").map(String.init)
        let database = Database(String(parts[1]))
        guard let database else { preconditionFailure("no database \(parts[1])") }
        return PairKey(engine: name(parts[0]), database: database)
    }

    /// A status row with what the line reads: the pair, its summary, stalls and phases.
    static func row(
        _ pair: String,
        _ summary: Summary,
        stalls: [StallReason] = [],
        setup: PhaseState = .succeeded(started: at(0), ended: at(1)),
        import importPhase: PhaseState = .notStarted,
        export: PhaseState = .notStarted,
        exportFailing: OutstandingFailure? = nil
    ) -> StatusRow {
        // As the daemon reports it: a failed phase is failing since that cycle's end.
        func failing(_ state: PhaseState) -> OutstandingFailure? {
            guard case .failed(_, let ended, let error) = state else { return nil }
            return OutstandingFailure(since: ended, error: error)
        }
        return StatusRow(
            key: self.key(pair),
            summary: summary,
            stalls: StallSet(stalls),
            account: .available,
            network: .available,
            phases: (setup, importPhase, export),
            failing: (failing(setup), failing(importPhase), exportFailing ?? failing(export)),
            throttledUntil: nil,
            pending: (0, 0),
            lastEvent: at(10),
            up: true
        )
    }

    static func failed(_ error: PhaseError) -> PhaseState { .failed(started: at(2), ended: at(3), error: error) }

    static func failed(code: String) -> PhaseState {
        .failed(started: at(2), ended: at(3), error: PhaseError(code: ErrorCode(name: name(code)), errorClass: .actionable))
    }

    /// `count` healthy pairs, `ok-0/private` …
    static func healthy(_ count: Int) -> [StatusRow] {
        (0..<count).map { self.row("ok-\($0)/private", .succeeded) }
    }

    // MARK: Whole lines

    /// One fleet and the line it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var rows: [StatusRow]
        var engine: String? = nil
        var line: String

        var testDescription: String { self.name }
    }

    static let cases: [Case] = [
        Case(
            name: "the example of the contract",
            rows: [
                row("notes/private", .stalled, stalls: [.notSyncing]),
                row("photos/private", .error, export: failed(actionable(.quotaExceeded))),
            ] + healthy(18),
            line:
                "SYNCMON CRITICAL - 2 of 20 critical: notes/private stalled (not_syncing), photos/private error (quotaExceeded) | ok=18 warning=0 critical=2 unknown=0"
        ),
        Case(
            name: "all ok",
            rows: healthy(20),
            line: "SYNCMON OK - 20 engine/database pairs ok | ok=20 warning=0 critical=0 unknown=0"
        ),
        Case(
            name: "one pair, ok",
            rows: healthy(1),
            line: "SYNCMON OK - 1 engine/database pair ok | ok=1 warning=0 critical=0 unknown=0"
        ),
        Case(
            name: "retrying, throttled, stopped, not_started and in_progress are ok, and not listed",
            rows: [
                row("a/private", .retrying, export: failed(transient(.networkFailure))),
                row("b/private", .throttled),
                row("c/private", .stopped),
                row("d/private", .notStarted),
                row("e/private", .inProgress),
            ],
            line: "SYNCMON OK - 5 engine/database pairs ok | ok=5 warning=0 critical=0 unknown=0"
        ),
        Case(
            name: "no rows",
            rows: [],
            line: "SYNCMON UNKNOWN - no engines tracked | ok=0 warning=0 critical=0 unknown=0"
        ),
        Case(
            name: "no rows for the engine asked for",
            rows: [],
            engine: "notes",
            line: "SYNCMON UNKNOWN - no engine named notes is tracked | ok=0 warning=0 critical=0 unknown=0"
        ),
        Case(
            name: "warnings only: the count names warnings",
            rows: [row("a/private", .noNetwork), row("b/shared", .accountNotAvailable), row("c/private", .succeeded)],
            line: "SYNCMON WARNING - 2 of 3 warning: a/private no_network, b/shared account_not_available | ok=1 warning=2 critical=0 unknown=0"
        ),
        Case(
            name: "worst first: critical before unknown before warning, else in the daemon's order",
            rows: [
                row("a/private", .noNetwork),
                row("b/private", .unknown),
                row("c/private", .engineDown),
                row("d/private", .succeeded),
                row("e/public", .stalled, stalls: [.noProgress]),
            ],
            line:
                "SYNCMON CRITICAL - 2 of 5 critical: c/private engine_down, e/public stalled (no_progress), b/private unknown, a/private no_network | ok=1 warning=1 critical=2 unknown=1"
        ),
        Case(
            name: "unknown beats warning",
            rows: [row("a/private", .noNetwork), row("b/private", .unknown)],
            line: "SYNCMON UNKNOWN - 1 of 2 unknown: b/private unknown, a/private no_network | ok=0 warning=1 critical=0 unknown=1"
        ),
        Case(
            name: "several stall reasons, comma-separated",
            rows: [row("a/private", .stalled, stalls: [.retryLoop, .notSyncing])],
            line: "SYNCMON CRITICAL - 1 of 1 critical: a/private stalled (not_syncing,retry_loop) | ok=0 warning=0 critical=1 unknown=0"
        ),
        Case(
            name: "an error while a retry runs names the code it keeps failing with",
            rows: [
                row(
                    "a/private", .error, export: .inProgress(since: at(5)),
                    exportFailing: OutstandingFailure(since: at(3), error: actionable(.quotaExceeded))
                )
            ],
            line: "SYNCMON CRITICAL - 1 of 1 critical: a/private error (quotaExceeded) | ok=0 warning=0 critical=1 unknown=0"
        ),
        Case(
            name: "an error row without any failure has no detail",
            rows: [row("a/private", .error, export: .inProgress(since: at(5)))],
            line: "SYNCMON CRITICAL - 1 of 1 critical: a/private error | ok=0 warning=0 critical=1 unknown=0"
        ),
        Case(
            name: "store names as databases",
            rows: [row("recipes/Shared.sqlite", .error, export: failed(actionable(.quotaExceeded))), row("st/abcd-1234", .succeeded)],
            line: "SYNCMON CRITICAL - 1 of 2 critical: recipes/Shared.sqlite error (quotaExceeded) | ok=1 warning=0 critical=1 unknown=0"
        ),
        Case(
            name: "codes the engine made up keep their spelling",
            rows: [row("backup/private", .error, export: failed(code: "exit23"))],
            line: "SYNCMON CRITICAL - 1 of 1 critical: backup/private error (exit23) | ok=0 warning=0 critical=1 unknown=0"
        ),
        Case(
            name: "| and line breaks from an engine cannot break the line",
            rows: [row("a/private", .error, export: failed(code: "bad|code\nnext"))],
            line: "SYNCMON CRITICAL - 1 of 1 critical: a/private error (bad/code next) | ok=0 warning=0 critical=1 unknown=0"
        ),
        Case(
            name: "more than eight problems: eight, then how many more",
            rows: (0..<12).map { row("e\($0)/private", .engineDown) } + healthy(3),
            line: "SYNCMON CRITICAL - 12 of 15 critical: "
                + (0..<8).map { "e\($0)/private engine_down" }.joined(separator: ", ")
                + ", … and 4 more | ok=3 warning=0 critical=12 unknown=0"
        ),
    ]

    @Test("the line for a fleet", arguments: Self.cases)
    func line(_ testCase: Case) {
        #expect(NagiosLine.render(rows: testCase.rows, engine: testCase.engine) == testCase.line)
    }

    @Test("long names: the list stops near 300 characters, and one problem is always named")
    func cutByLength() throws {
        let long = String(repeating: "x", count: 60)
        let rows = (0..<8).map { Self.row("\(long)\($0)/private", .stalled, stalls: [.notSyncing, .noProgress, .pendingNotDraining]) }
        let line = NagiosLine.render(rows: rows)
        let text = try #require(line.split(separator: " | ").first)
        let list = try #require(text.split(separator: ": ", maxSplits: 1).last)
        let named = list.components(separatedBy: ", ").filter { !$0.hasPrefix("…") }
        #expect(named.count < 8, "\(line)")
        #expect(named.count >= 1)
        #expect(list.hasSuffix(", … and \(8 - named.count) more"), "\(line)")
        #expect(named.joined(separator: ", ").count <= NagiosLine.maximumProblemText)

        let single = NagiosLine.render(rows: [Self.row(String(repeating: "y", count: 64) + "/private", .stalled, stalls: StallReason.allCases)])
        #expect(!single.contains("more"), "\(single)")
        #expect(single.contains("yyyy/private stalled (not_syncing,"), "\(single)")
    }

    @Test("whatever the fleet: one line, one ' | ', perfdata adding up to the rows, the worst severity first")
    func invariants() {
        let summaries = Summary.allCases
        for size in [1, 2, 3, 7, 20, 50] {
            for seed in 0..<summaries.count {
                let rows = (0..<size).map { index in
                    let summary = summaries[(index * 7 + seed * 3) % summaries.count]
                    return Self.row("e\(index)/private", summary, stalls: summary == .stalled ? [.notSyncing] : [])
                }
                let line = NagiosLine.render(rows: rows)
                let worst = Severity.worst(of: rows.map(\.summary.severity))
                #expect(!line.contains("\n"))
                #expect(line.components(separatedBy: " | ").count == 2, "\(line)")
                #expect(line.hasPrefix("SYNCMON \(worst) - "), "\(line)")
                let perfdata = line.components(separatedBy: " | ")[1].split(separator: " ").map { $0.split(separator: "=") }
                #expect(perfdata.map { String($0[0]) } == ["ok", "warning", "critical", "unknown"])
                #expect(perfdata.compactMap { Int($0[1]) }.reduce(0, +) == size)
            }
        }
    }

    @Test("the whole line names the failure that no_network hides")
    func hiddenFailure() {
        let rows = [Self.row("syncthing/photos", .noNetwork, setup: Self.failed(code: "folderError"))] + Self.healthy(1)
        #expect(
            NagiosLine.render(rows: rows)
                == "SYNCMON WARNING - 1 of 2 warning: syncthing/photos no_network (setup failed: folderError) | ok=1 warning=1 critical=0 unknown=0")
    }

    @Test("an unreachable daemon: UNKNOWN with the reason, no perfdata")
    func unreachable() {
        #expect(
            NagiosLine.unreachable(reason: "cannot reach the daemon at http://127.0.0.1:9478: Connection refused")
                == "SYNCMON UNKNOWN - daemon unreachable: cannot reach the daemon at http://127.0.0.1:9478: Connection refused"
        )
        #expect(NagiosLine.unreachable(reason: "a|b\r\nc") == "SYNCMON UNKNOWN - daemon unreachable: a/b  c")
        #expect(NagiosLine.unknown("--engine must be …, not a|b") == "SYNCMON UNKNOWN - --engine must be …, not a/b")
    }

    // MARK: The detail of one row

    @Test(
        "problemDetail: stall reasons, the first failed phase's code in the order setup, import, export, or the failure a higher summary hides",
        arguments: [
            (row("a/private", .stalled, stalls: [.notSyncing]), String?.some("not_syncing")),
            (row("a/private", .stalled), nil),
            (row("a/private", .error, export: failed(actionable(.quotaExceeded))), "quotaExceeded"),
            (row("a/private", .retrying, import: failed(transient(.networkFailure))), "networkFailure"),
            (row("a/private", .error, import: failed(actionable(.zoneNotFound)), export: failed(actionable(.quotaExceeded))), "zoneNotFound"),
            (row("a/private", .error, setup: failed(actionable(.badContainer)), import: failed(actionable(.zoneNotFound))), "badContainer"),
            (row("a/private", .error), nil),
            // A summary that outranks error names the actionable failure it hides; a transient one waits.
            (row("a/private", .engineDown, export: failed(actionable(.quotaExceeded))), "export failed: quotaExceeded"),
            (row("a/private", .noNetwork, setup: failed(code: "folderError")), "setup failed: folderError"),
            (row("a/private", .accountNotAvailable, import: failed(transient(.networkFailure))), nil),
            (row("a/private", .noNetwork), nil),
            (row("a/private", .succeeded), nil),
        ]
    )
    func problemDetail(_ row: StatusRow, _ expected: String?) {
        #expect(NagiosLine.problemDetail(of: row) == expected)
    }
}
