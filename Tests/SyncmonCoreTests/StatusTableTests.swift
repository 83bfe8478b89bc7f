import SyncmonCore
import Testing

/// The status table (``StatusTable``, ``StatusDetail``): DETAIL for every summary, the 80-column
/// fit with long and hostile text, and the wide table's columns.
@Suite("Status table")
struct StatusTableTests {
    /// 2026-11-21T12:03:20Z: a little after every time the rows carry.
    static let now = at(200)
    static let folderError = PhaseError(code: ErrorCode(name: name("folderError")), errorClass: .actionable)

    /// A row with only what a case sets; a failed phase is failing since that cycle's end, as
    /// the daemon reports it.
    static func row(
        _ summary: Summary,
        pair: String = "notes/private",
        stalls: [StallReason] = [],
        account: AccountStatus = .available,
        setup: PhaseState = .notStarted,
        import importPhase: PhaseState = .notStarted,
        export: PhaseState = .notStarted,
        failing: (setup: OutstandingFailure?, import: OutstandingFailure?, export: OutstandingFailure?)? = nil,
        throttledUntil: Timestamp? = nil,
        pending: Int64 = 0,
        lastEvent: Timestamp = at(190)
    ) -> StatusRow {
        func failed(_ state: PhaseState) -> OutstandingFailure? {
            guard case .failed(_, let ended, let error) = state else { return nil }
            return OutstandingFailure(since: ended, error: error)
        }
        return StatusRow(
            key: NagiosLineTests.key(pair),
            summary: summary,
            stalls: StallSet(stalls),
            account: account,
            network: summary == .noNetwork ? .unavailable : .available,
            phases: (setup, importPhase, export),
            failing: failing ?? (failed(setup), failed(importPhase), failed(export)),
            throttledUntil: throttledUntil,
            pending: (pending, 0),
            lastEvent: lastEvent,
            up: summary != .stopped && summary != .engineDown
        )
    }

    static func failed(_ error: PhaseError, at seconds: Int64 = 10) -> PhaseState {
        .failed(started: at(seconds - 1), ended: at(seconds), error: error)
    }

    static let detailCases: [(String, StatusRow, String)] = [
        ("stopped", row(.stopped, import: .inProgress(since: at(5))), "engine stopped"),
        (
            "stopped hides an actionable failure", row(.stopped, export: failed(actionable(.quotaExceeded))),
            "engine stopped; export: quotaExceeded since 12:00"
        ),
        ("engine_down", row(.engineDown, import: .inProgress(since: at(5))), "heartbeat or connection lost"),
        (
            "no_network hides a failed setup", row(.noNetwork, setup: failed(folderError)),
            "offline; setup: folderError since 12:00"
        ),
        ("no_network does not name a transient failure", row(.noNetwork, import: failed(transient(.networkFailure))), "offline"),
        ("account_not_available", row(.accountNotAvailable, account: .noAccount), "account no_account"),
        ("error", row(.error, export: failed(actionable(.quotaExceeded), at: 130)), "export: quotaExceeded since 12:02"),
        (
            "error under a retry",
            row(
                .error, export: .inProgress(since: at(150)),
                failing: (nil, nil, OutstandingFailure(since: at(70), error: actionable(.quotaExceeded)))),
            "export: quotaExceeded since 12:01"
        ),
        ("retrying", row(.retrying, import: failed(transient(.networkFailure))), "import: networkFailure since 12:00"),
        ("stalled", row(.stalled, stalls: [.noProgress], import: .inProgress(since: at(5))), "no_progress"),
        ("stalled, pending", row(.stalled, stalls: [.notSyncing, .pendingNotDraining], pending: 12), "not_syncing, pending_not_draining (12 pending)"),
        ("throttled", row(.throttled, throttledUntil: at(300)), "throttled until 12:05"),
        ("throttled, passed", row(.throttled), "throttled"),
        ("not_started, setup running", row(.notStarted, setup: .inProgress(since: at(0))), "setup since 12:00"),
        ("not_started, set up", row(.notStarted, setup: .succeeded(started: at(0), ended: at(60))), "set up 12:01, no cycle yet"),
        ("not_started", row(.notStarted), "no cycle yet"),
        ("in_progress", row(.inProgress, import: .inProgress(since: at(60)), pending: 3), "import since 12:01, 3 pending"),
        (
            "succeeded", row(.succeeded, import: .succeeded(started: at(50), ended: at(60)), export: .succeeded(started: at(100), ended: at(120))),
            "last import 12:01, export 12:02"
        ),
        ("succeeded, a day ago", row(.succeeded, export: .succeeded(started: at(-90_000), ended: at(-86_400))), "last export 2026-11-20"),
        ("unknown", row(.unknown), "-"),
    ]

    @Test("DETAIL says why, for every summary", arguments: detailCases)
    func detail(name: String, row: StatusRow, expected: String) {
        #expect(StatusDetail.text(for: row, now: Self.now) == expected, "\(name)")
    }

    @Test("every summary has a DETAIL case")
    func everySummary() {
        let covered = Set(Self.detailCases.map(\.1.summary))
        #expect(covered == Set(Summary.allCases))
    }

    @Test("the table: four columns, aligned, the summary's words")
    func compact() {
        let rows = [
            Self.row(.succeeded, pair: "notes/private", import: .succeeded(started: at(50), ended: at(60))),
            Self.row(.error, pair: "photos/shared", export: Self.failed(actionable(.quotaExceeded), at: 130), lastEvent: at(80)),
        ]
        let expected = """
            ENGINE/DATABASE  SUMMARY    DETAIL                             LAST EVENT
            notes/private    succeeded  last import 12:01                  10s ago
            photos/shared    error      export: quotaExceeded since 12:02  2m ago

            """
        #expect(StatusTable.render(rows: rows, now: Self.now) == expected)
    }

    /// Rows that cannot fit as they are: the longest names, a 64 KiB message's worth of stall
    /// reasons, error codes with escape sequences, line breaks, bidi overrides and wide characters.
    static let hostileRows: [StatusRow] = {
        let longName = String(repeating: "e", count: 64)
        let escape = PhaseError(code: ErrorCode(name: name("\u{1B}[2J\u{1B}[31mred\nline\u{202E}rtl")), errorClass: .actionable)
        let wide = PhaseError(code: ErrorCode(name: name("容量超過容量超過容量超過容量超過")), errorClass: .actionable)
        return [
            Self.row(.error, pair: "\(longName)/\(longName)", export: Self.failed(escape)),
            Self.row(.accountNotAvailable, pair: "a/\(longName)", account: .temporarilyUnavailable, setup: Self.failed(wide)),
            Self.row(.stalled, pair: "x/private", stalls: StallReason.allCases, pending: .max),
            Self.row(.noNetwork, pair: "x/shared", setup: Self.failed(escape)),
        ]
    }()

    @Test("every line fits 80 columns, with or without colours; hostile text is cut and made harmless", arguments: [false, true])
    func fits(colors: Bool) {
        let rows = Self.hostileRows + Self.detailCases.map(\.1)
        let output = StatusTable.render(rows: rows, now: Self.now, colors: colors)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == rows.count + 1)
        for line in lines {
            let visible = Self.withoutColors(String(line))
            #expect(TerminalText.width(visible) <= 80, "\(visible.count): \(visible)")
            // The only escapes left are our colours; no control character otherwise.
            #expect(!visible.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(visible.debugDescription)")
        }
        // The long pair and the long detail are cut with an ellipsis, never dropped.
        #expect(output.contains("eeee…"))
        #expect(output.contains("export: �[2J�[31mre…"))
        #expect(TerminalText.sanitized(StatusDetail.text(for: Self.hostileRows[0], now: Self.now)) == "export: �[2J�[31mred line�rtl since 12:00")
    }

    @Test("names whole where they fit: DETAIL is cut first, and the names only when DETAIL at 20 columns still leaves too little")
    func cutWidths() {
        let long = String(repeating: "p", count: 64)
        let output = StatusTable.render(rows: [Self.row(.stalled, pair: "\(long)/private", stalls: StallReason.allCases)], now: Self.now)
        let lines = output.split(separator: "\n")
        // The header is the widest line: LAST EVENT is wider than "10s ago".
        #expect(TerminalText.width(String(lines[0])) == 80)
        #expect(lines[1] == String(repeating: "p", count: 36) + "…  stalled  not_syncing, no_pro…  10s ago")
    }

    /// The widths from the content: (the widest cell of ENGINE/DATABASE, SUMMARY, DETAIL and LAST
    /// EVENT, header included), the columns given, and the widths the table takes.
    static let widthCases: [(String, [Int], Int, [Int])] = [
        ("every name and detail fits", [27, 11, 14, 10], 80, [27, 11, 14, 10]),
        ("no detail to pad: only the header's", [15, 7, 6, 10], 80, [15, 7, 6, 10]),
        ("DETAIL is cut, the names stay whole", [30, 11, 42, 10], 80, [30, 11, 23, 10]),
        ("the names are cut only to leave DETAIL 20", [72, 7, 60, 10], 80, [37, 7, 20, 10]),
        ("a short DETAIL keeps all it needs, the names the rest", [72, 7, 14, 10], 80, [43, 7, 14, 10]),
        ("160 columns: a failure's message whole", [30, 11, 90, 10], 160, [30, 11, 90, 10]),
        ("160 columns: DETAIL takes the room, no more", [30, 11, 200, 10], 160, [30, 11, 103, 10]),
        ("narrower than 80: names down to 16, DETAIL down to 20", [30, 11, 42, 10], 60, [16, 11, 20, 10]),
    ]

    @Test("the widths come from the content and the columns given", arguments: widthCases)
    func widths(name: String, natural: [Int], columns: Int, expected: [Int]) {
        #expect(StatusTable.widths(natural: natural, columns: columns) == expected, "\(name)")
    }

    @Test(
        "the width: the terminal's, else $COLUMNS, else 80",
        arguments: [
            (120, nil, 120), (nil, "160", 160), (nil, nil, 80), (nil, "wide", 80), (nil, "0", 80), (100, "160", 100), (0, "90", 90),
        ] as [(Int?, String?, Int)])
    func width(terminal: Int?, columnsVariable: String?, expected: Int) {
        #expect(StatusTable.width(terminal: terminal, columnsVariable: columnsVariable) == expected)
    }

    @Test("given 160 columns, a failure's message is whole; given 80, it is cut, and no line is longer")
    func failureMessage() {
        let message = "Failed to copy: mkdir /srv/photos/2026: permission denied"
        let error = PhaseError(code: ErrorCode(name: name("folderError")), errorClass: .actionable, message: message)
        let rows = [
            Self.row(.error, pair: "rclone-photos/offsite", export: Self.failed(error, at: 130)), Self.row(.stopped, pair: "sim-flaky-network/Documents"),
        ]
        let wide = StatusTable.render(rows: rows, now: Self.now, columns: 160)
        #expect(wide.contains("rclone-photos/offsite        error"), "\(wide)")
        #expect(wide.contains("export: folderError since 12:02 — \(message)  10s ago"), "\(wide)")
        let narrow = StatusTable.render(rows: rows, now: Self.now)
        #expect(narrow.contains("sim-flaky-network/Documents  stopped"), "\(narrow)")
        #expect(!narrow.contains(message))
        for line in narrow.split(separator: "\n") { #expect(TerminalText.width(String(line)) <= 80, "\(line)") }
    }

    /// Severities of the rows in the table's order, the lines the rows may take, and which rows show.
    static let fitCases: [(String, [Summary], Int, [Int])] = [
        ("room for all", [.succeeded, .succeeded, .succeeded], 5, [0, 1, 2]),
        ("exactly room for all: no line for more", [.succeeded, .succeeded, .succeeded], 3, [0, 1, 2]),
        ("problems first, shown in the table's order", [.succeeded, .error, .succeeded, .noNetwork], 3, [1, 3]),
        ("a problem at the end is not hidden", Array(repeating: .succeeded, count: 19) + [.stalled], 5, [0, 1, 2, 19]),
        ("critical before unknown before warning", [.noNetwork, .unknown, .engineDown, .succeeded], 3, [1, 2]),
        ("fewer lines than problems: the first of the worst", [.error, .stalled, .error, .succeeded], 2, [0]),
        ("one line: only the count", [.error, .succeeded, .succeeded], 1, []),
    ]

    @Test("a short --watch window keeps the problems and counts the rest", arguments: fitCases)
    func fit(name: String, summaries: [Summary], lines: Int, shown: [Int]) {
        let rows = summaries.enumerated().map { Self.row($0.element, pair: "e\($0.offset)/private") }
        let fitted = StatusTable.fit(rows, lines: lines)
        #expect(fitted.shown.map(\.key) == shown.map { rows[$0].key }, "\(name)")
        #expect(fitted.hidden.count == rows.count - shown.count, "\(name)")
        #expect(fitted.shown.count + (fitted.hidden.isEmpty ? 0 : 1) <= lines, "\(name)")
    }

    @Test("an 80x12 --watch frame of 20 pairs: the header, 8 rows and … 12 more")
    func fitsTenLines() {
        let rows = (0..<20).map { Self.row($0 == 17 ? .stalled : .succeeded, pair: "sim-\($0)/private", stalls: $0 == 17 ? [.noProgress] : []) }
        let output = StatusTable.render(rows: rows, now: Self.now, lines: 10)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 10, "\(output)")
        #expect(lines.first?.hasPrefix("ENGINE/DATABASE") == true)
        #expect(lines.contains { $0.hasPrefix("sim-17/private") }, "\(output)")
        #expect(lines.last == "… 12 more")
        let short = StatusTable.render(rows: rows, now: Self.now, lines: 1)
        #expect(short.hasSuffix("\n… 20 more (1 not ok)\n"), "\(short)")
    }

    @Test("--wide: every column; no stale phase on a stopped or down pair; no setup or account for a wrapped job")
    func wide() {
        let wrapped = StatusRow(
            key: NagiosLineTests.key("backup/private"),
            summary: .succeeded,
            stalls: StallSet(),
            account: .unknown,
            network: .unknown,
            phases: (.notStarted, .notStarted, .succeeded(started: at(100), ended: at(120))),
            throttledUntil: nil,
            pending: (0, 0),
            lastEvent: at(120),
            up: true
        )
        let rows = [
            wrapped,
            Self.row(.stopped, pair: "notes/private", setup: .succeeded(started: at(0), ended: at(1)), import: .inProgress(since: at(5))),
            Self.row(.engineDown, pair: "photos/private", setup: .succeeded(started: at(0), ended: at(1)), export: .inProgress(since: at(5))),
        ]
        let expected = """
            ENGINE/DATABASE  SUMMARY      STALLED  SETUP      IMPORT       EXPORT       ACCOUNT    NETWORK    PENDING  LAST EVENT  DETAIL
            backup/private   succeeded    -        -          not_started  succeeded    -          -          0        80s ago     last export 12:02
            notes/private    stopped      -        succeeded  interrupted  not_started  available  available  0        10s ago     engine stopped
            photos/private   engine_down  -        succeeded  not_started  interrupted  available  available  0        10s ago     heartbeat or connection lost

            """
        #expect(StatusTable.render(rows: rows, now: Self.now, wide: true) == expected)
    }

    @Test("colours: the summary coloured and marked, the header bold, the columns still aligned")
    func colors() {
        let rows = [Self.row(.succeeded), Self.row(.stalled, pair: "x/private", stalls: [.noProgress])]
        let output = StatusTable.render(rows: rows, now: Self.now, colors: true)
        #expect(output.contains("\u{1B}[32m✓ succeeded  \u{1B}[0m"))
        #expect(output.contains("\u{1B}[31m✗ stalled    \u{1B}[0m"))
        #expect(output.hasPrefix("\u{1B}[1mENGINE/DATABASE  \u{1B}[0m"))
        let plain = output.split(separator: "\n").map { Self.withoutColors(String($0)) }
        #expect(Set(plain.map { TerminalText.width(String($0.prefix(28))) }).count == 1)
    }

    @Test(
        "in sync: succeeded, nothing running, nothing pending",
        arguments: [
            (row(.succeeded, import: .succeeded(started: at(1), ended: at(2))), true),
            (row(.succeeded, import: .succeeded(started: at(1), ended: at(2)), pending: 1), false),
            (row(.succeeded, import: .succeeded(started: at(1), ended: at(2)), export: .inProgress(since: at(3))), false),
            (row(.inProgress, import: .inProgress(since: at(3))), false),
            (row(.stopped), false),
            (row(.error, export: failed(actionable(.quotaExceeded))), false),
        ])
    func inSync(row: StatusRow, expected: Bool) {
        #expect(row.isInSync == expected)
    }

    @Test(
        "terminal text: sanitized, measured and cut by columns",
        arguments: [
            ("plain", 10, "plain"),
            ("a\nb\tc\u{1B}[0m", 20, "a b c�[0m"),
            ("abcdefghij", 5, "abcd…"),
            ("容量超過", 5, "容量…"),
            ("e\u{301}e\u{301}e\u{301}", 3, "e\u{301}e\u{301}e\u{301}"),
            ("\u{202E}evil", 10, "�evil"),
        ])
    func terminalText(text: String, columns: Int, expected: String) {
        #expect(TerminalText.cut(text, to: columns) == expected)
        #expect(TerminalText.width(TerminalText.cut(text, to: columns)) <= columns)
    }

    /// The line without SGR colour sequences (`ESC [ … m`).
    static func withoutColors(_ line: String) -> String {
        var result = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                result.append(character)
            }
        }
        return result
    }
}
