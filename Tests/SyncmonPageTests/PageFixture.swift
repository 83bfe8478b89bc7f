import Foundation
import SyncmonCore
import SyncmonPage

/// Rows and pairs for the page tests, built in a line each.
enum PageFixture {
    static let now = RFC3339.parse("2026-11-28T12:00:00Z")!

    /// `minutes` before ``now``.
    static func ago(_ minutes: Int64) -> Timestamp {
        self.now.adding(.seconds(-minutes * 60))
    }

    /// The pair `name` ("engine/database") with `summary`, failing its export with `message`
    /// when the summary is `error`.
    static func pair(_ name: String, _ summary: Summary, message: String? = nil, changes: [HealthChange] = []) -> PagePair {
        let parts = name.split(separator: "/").map(String.init)
        let key = PairKey(engine: EngineName.parse(parts[0])!, database: Database(parts[1])!)
        let error = PhaseError(code: ErrorCode(.quotaExceeded), errorClass: .actionable, message: message)
        let failing = summary == .error ? OutstandingFailure(since: self.ago(30), error: error) : nil
        let row = StatusRow(
            key: key, summary: summary, stalls: summary == .stalled ? StallSet([.noProgress]) : StallSet(),
            account: .available, network: .available,
            phases: (setup: .notStarted, import: .succeeded(started: self.ago(6), ended: self.ago(5)), export: .notStarted),
            failing: (nil, nil, failing),
            throttledUntil: nil, pending: (0, 0), lastEvent: self.ago(1), up: true)
        return PagePair(row: row, lastImport: self.ago(5), lastExport: nil, changes: changes)
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The `data-pair` values of a page's rows, in order.
    static func rowPairs(_ page: String) -> [String] {
        page.components(separatedBy: "<tr data-pair=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
