import Foundation
import SyncmonCore
import Testing

/// The sources of the status document (docs/subscribe.md#sources-in-the-status): what a failing
/// one does to the exit status, the block `syncmon status` prints after its table, and the
/// Nagios line.
@Suite("Sources in the status")
struct SourceStatusTests {
    static let forbidden = "/rest/system/status: 403 (CSRF Error) — is the API key right?"

    static func source(_ state: SourceStatus.State, name: String = "st", error: String? = nil, reconnects: UInt64 = 0) -> SourceStatus {
        SourceStatus(name: name, kind: "syncthing", state: state, since: at(100), lastError: error, reconnects: reconnects)
    }

    static func row(_ pair: String, _ summary: Summary) -> StatusRow {
        NagiosLineTests.row(pair, summary)
    }

    @Test(
        "the exit status: the worst of the pairs and the failing sources; nothing at all is unknown",
        arguments: [
            ([Summary](), [SourceStatus.State](), Severity.unknown),
            ([], [.starting], .unknown),
            ([], [.connected], .unknown),
            // A source that never connected: critical, not "no engines" (unknown).
            ([], [.disconnected], .critical),
            ([.succeeded], [.connected], .ok),
            ([.succeeded], [.starting], .ok),
            ([.succeeded], [.connected, .disconnected], .critical),
            ([.noNetwork], [.disconnected], .critical),
            ([.noNetwork], [.connected], .warning),
            ([.unknown], [.connected], .unknown),
        ])
    func severity(summaries: [Summary], states: [SourceStatus.State], expected: Severity) {
        let rows = summaries.enumerated().map { Self.row("e\($0.offset)/private", $0.element) }
        let sources = states.enumerated().map { Self.source($0.element, name: "s\($0.offset)") }
        #expect(StatusDocument.severity(rows: rows, sources: sources) == expected)
        #expect(StatusDocument(now: at(200), engines: rows, sources: sources).severity == expected)
    }

    @Test("replay's document, without sources, exits by its rows alone")
    func noSourcesKey() {
        #expect(StatusDocument(now: at(200), engines: [Self.row("a/private", .succeeded)]).severity == .ok)
        #expect(StatusDocument(now: at(200), engines: []).severity == .unknown)
    }

    @Test(
        "the block after the table: failing sources only, the error never cut",
        arguments: [
            ([Self.source(.connected), Self.source(.starting, name: "other")], ""),
            (
                [Self.source(.disconnected, error: Self.forbidden, reconnects: 3), Self.source(.connected, name: "ok", error: "old")],
                """

                SOURCE  KIND       NOT CONNECTED SINCE  LAST ERROR
                st      syncthing  12:01 (3 retries)    \(Self.forbidden)

                """
            ),
            (
                [Self.source(.disconnected, name: "a-long-source-name", error: "line\nbreak", reconnects: 1)],
                """

                SOURCE              KIND       NOT CONNECTED SINCE  LAST ERROR
                a-long-source-name  syncthing  12:01 (1 retry)      line break

                """
            ),
        ])
    func block(sources: [SourceStatus], expected: String) {
        #expect(SourceTroubleText.render(sources, now: at(200)) == expected)
    }

    @Test(
        "the Nagios line leads with the failing sources; the perfdata counts pairs",
        arguments: [
            (
                [Summary](), [Self.source(.disconnected, error: Self.forbidden)],
                "SYNCMON CRITICAL - source st not connected (\(Self.forbidden)); no engines tracked | ok=0 warning=0 critical=0 unknown=0"
            ),
            (
                [.succeeded], [Self.source(.disconnected, error: "connection refused")],
                "SYNCMON CRITICAL - source st not connected (connection refused); 1 engine/database pair ok | ok=1 warning=0 critical=0 unknown=0"
            ),
            (
                [.noNetwork, .succeeded], [Self.source(.disconnected, error: "refused | twice")],
                "SYNCMON CRITICAL - source st not connected (refused / twice); 1 of 2 warning: e0/private no_network | ok=1 warning=1 critical=0 unknown=0"
            ),
            ([.succeeded], [Self.source(.connected, error: "old")], "SYNCMON OK - 1 engine/database pair ok | ok=1 warning=0 critical=0 unknown=0"),
            (
                [], [Self.source(.disconnected, error: String(repeating: "x", count: 200))],
                "SYNCMON CRITICAL - source st not connected (\(String(repeating: "x", count: 119))…); no engines tracked | ok=0 warning=0 critical=0 unknown=0"
            ),
        ])
    func nagios(summaries: [Summary], sources: [SourceStatus], expected: String) {
        let rows = summaries.enumerated().map { Self.row("e\($0.offset)/private", $0.element) }
        #expect(NagiosLine.render(rows: rows, sources: sources) == expected)
    }
}
