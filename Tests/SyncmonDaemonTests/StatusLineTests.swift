import SyncmonCore
import SyncmonDaemon
import Testing

/// `StatusLine.text`: the one-line `STATUS=` systemd shows.
@Suite("STATUS= line")
struct StatusLineTests {
    static func row(_ engine: String, _ summary: Summary, database: Database = .private) -> StatusRow {
        statusRow(engine, summary, database: database)
    }

    @Test(
        "texts for typical fleets",
        arguments: [
            ([], "no engines yet"),
            ([statusRow("notes", .succeeded)], "1 engine: 1 ok"),
            ([statusRow("notes", .stalled)], "1 engine: 1 stalled"),
            ([statusRow("a", .succeeded), statusRow("b", .inProgress), statusRow("c", .stalled)], "3 engines: 2 ok, 1 stalled"),
            // Every ok-severity summary counts as ok.
            (
                [
                    statusRow("a", .succeeded), statusRow("b", .inProgress), statusRow("c", .notStarted), statusRow("d", .throttled), statusRow("e", .retrying),
                    statusRow("f", .stopped),
                ],
                "6 engines: 6 ok"
            ),
            // Problems are listed in precedence order after "ok", whatever the row order.
            (
                [statusRow("a", .stalled), statusRow("b", .error), statusRow("c", .succeeded), statusRow("d", .engineDown)],
                "4 engines: 1 ok, 1 engine_down, 1 error, 1 stalled"
            ),
            (
                [statusRow("a", .noNetwork), statusRow("b", .accountNotAvailable), statusRow("c", .unknown)],
                "3 engines: 1 no_network, 1 account_not_available, 1 unknown"
            ),
        ] as [([StatusRow], String)])
    func texts(rows: [StatusRow], expected: String) {
        #expect(StatusLine.text(summaries: rows.map { ($0.key, $0.summary) }) == expected)
    }

    @Test("an engine with several databases counts once, by its worst database")
    func enginesNotPairs() {
        let rows = [
            Self.row("notes", .succeeded, database: .private),
            Self.row("notes", .error, database: .shared),
            Self.row("notes", .stalled, database: .public),
            Self.row("photos", .succeeded, database: .private),
            Self.row("photos", .inProgress, database: .shared),
        ]
        #expect(StatusLine.text(summaries: rows.map { ($0.key, $0.summary) }) == "2 engines: 1 ok, 1 error")
    }

    @Test("the text is one line")
    func oneLine() {
        let rows = Summary.allCases.enumerated().map { Self.row("e\($0.offset)", $0.element) }
        let text = StatusLine.text(summaries: rows.map { ($0.key, $0.summary) })
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix("\(Summary.allCases.count) engines: "))
    }
}

/// A row with only the fields the status line reads filled in.
private func statusRow(_ engine: String, _ summary: Summary, database: Database = .private) -> StatusRow {
    StatusRow(
        key: PairKey(engine: InlineName(engine)!, database: database),
        summary: summary,
        stalls: StallSet(),
        account: .available,
        network: .available,
        phases: (.notStarted, .notStarted, .notStarted),
        throttledUntil: nil,
        pending: (0, 0),
        lastEvent: Timestamp(seconds: 0),
        up: true
    )
}
