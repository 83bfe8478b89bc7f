import SyncmonCore

/// `GET /pair/ENGINE/DATABASE` (docs/page.md): one pair whole — its badge and DETAIL, the strip,
/// each phase with its outstanding failure and that failure's message, the conditions, the
/// canary's peers, and every change of health kept (7 days), newest first.
public enum PairPage {
    /// `/pair/ENGINE/DATABASE` (names are URL-safe as they are).
    public static func path(of key: PairKey) -> String {
        "/pair/\(key.engine)/\(key.database)"
    }

    /// The pair `ENGINE/DATABASE` names, when the path is a pair page's: `.some(nil)` for a pair
    /// page's path whose names are not valid ones.
    public static func key(path: String) -> PairKey?? {
        guard path.hasPrefix("/pair/") else { return nil }
        let parts = path.dropFirst("/pair/".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let engine = EngineName.parse(String(parts[0])), let database = Database(String(parts[1])) else {
            return .some(nil)
        }
        return PairKey(engine: engine, database: database)
    }

    /// The page of `pair`.
    public static func render(_ pair: PagePair, model: PageModel) -> [UInt8] {
        let row = pair.row
        var html = HTMLWriter(capacity: 8192 + pair.changes.count * 200)
        PageDocument.open(&html, title: "\(row.key) \(row.summary) · syncmon · \(model.host)")
        html.raw("<header id=\"head\" data-live><p class=\"asof\"><a href=\"/\">← all pairs</a> · ")
        html.text(model.host)
        html.raw("</p><h1 data-pair=\"")
        html.text(row.key.description)
        html.raw("\" data-summary=\"")
        html.text(row.summary.description)
        html.raw("\">")
        html.text(row.key.description)
        html.raw(" ")
        PageDocument.badge(&html, PageHealth(row.summary), label: row.summary.description)
        html.raw("</h1>")
        html.element("p", ["class": "detail"], text: StatusDetail.text(for: row, now: model.now))
        PageDocument.asOf(&html, model, pairs: nil)
        html.raw("</header>\n<main id=\"main\" data-live><p class=\"stale\" id=\"stale\" hidden></p>")
        html.raw("<h2>Last 24 hours</h2>")
        HistoryStrip(changes: pair.changes, now: model.now).write(to: &html, detailed: true)
        PageDocument.legend(&html)
        self.phases(&html, pair, now: model.now)
        self.conditions(&html, row, now: model.now)
        if let canary = row.canary { self.canary(&html, canary, now: model.now) }
        self.history(&html, pair.changes)
        html.raw("</main>\n")
        PageDocument.close(&html)
        return html.bytes
    }

    /// The page for a pair that is not tracked (or a path that names none): what was asked, as text.
    public static func notFound(path: String, model: PageModel) -> [UInt8] {
        var html = HTMLWriter()
        PageDocument.open(&html, title: "Not found · syncmon · \(model.host)")
        html.raw("<header><p class=\"asof\"><a href=\"/\">← all pairs</a> · ")
        html.text(model.host)
        html.raw("</p><h1>No such pair</h1></header>\n<main><p>Nothing is tracked at <code>")
        html.text(path)
        html.raw("</code>. A pair's page is <code>/pair/ENGINE/DATABASE</code>; the status page lists every tracked pair.</p></main>\n")
        PageDocument.close(&html)
        return html.bytes
    }

    static func phases(_ html: inout HTMLWriter, _ pair: PagePair, now: Timestamp) {
        html.raw("<h2>Phases</h2><dl class=\"facts\">")
        for phase in Phase.allCases {
            html.element("dt", text: "\(phase)")
            html.raw("<dd>")
            html.text(self.describe(pair.row[phase], now: now))
            let last = phase == .import ? pair.lastImport : phase == .export ? pair.lastExport : nil
            if let last { html.text(" · last success \(PageTime.full(last)) (\(PageTime.age(of: last, at: now)))") }
            if let failing = pair.row.failing(phase) {
                html.raw("<br><strong>Failing</strong> since ")
                html.text("\(PageTime.full(failing.since)): \(failing.error.code) (\(failing.error.errorClass))")
                if let message = failing.error.message, !message.isEmpty {
                    html.element("div", ["class": "msg"], text: message)
                }
            }
            html.raw("</dd>")
        }
        html.raw("</dl>")
    }

    /// `succeeded 2026-11-28 10:02:11 UTC (3m ago)`, `in progress since …`.
    static func describe(_ state: PhaseState, now: Timestamp) -> String {
        switch state {
        case .notStarted: "not started"
        case .inProgress(let since): "in progress since \(PageTime.full(since)) (\(PageTime.age(of: since, at: now)))"
        case .succeeded(_, let ended): "succeeded \(PageTime.full(ended)) (\(PageTime.age(of: ended, at: now)))"
        case .failed(_, let ended, let error): "failed \(PageTime.full(ended)) (\(PageTime.age(of: ended, at: now))): \(error.code)"
        }
    }

    static func conditions(_ html: inout HTMLWriter, _ row: StatusRow, now: Timestamp) {
        html.raw("<h2>Conditions</h2><dl class=\"facts\">")
        let stalls = row.stalls.map { row.describe($0) }
        var facts: [(String, String)] = [
            ("account", "\(row.account)"),
            ("network", "\(row.network)"),
            ("engine", row.up ? "up" : "down"),
            ("stalls", stalls.isEmpty ? "none" : stalls.joined(separator: ", ")),
            ("pending", "\(row.pendingRecordZoneChanges) record zone, \(row.pendingDatabaseChanges) database"),
            ("last event", "\(PageTime.full(row.lastEvent)) (\(PageTime.age(of: row.lastEvent, at: now)))"),
        ]
        if let until = row.throttledUntil { facts.append(("throttled until", PageTime.full(until))) }
        if let reason = row.unknownReason { facts.append(("unknown because", reason)) }
        for (name, value) in facts {
            html.element("dt", text: name)
            html.element("dd", text: value)
        }
        html.raw("</dl>")
    }

    static func canary(_ html: inout HTMLWriter, _ canary: CanaryStatus, now: Timestamp) {
        html.raw("<h2>Canary</h2><dl class=\"facts\">")
        html.element("dt", text: "this host")
        html.element("dd", text: "\(canary.host), seq \(canary.seq)")
        if let error = canary.error {
            html.element("dt", text: "error")
            html.element("dd", text: error)
        }
        for peer in canary.peers {
            var words = ["seq \(peer.seq)"]
            if let moved = peer.lastMoved { words.append("moved \(PageTime.age(of: moved, at: now))") }
            if let trip = peer.roundTripSeconds { words.append("round trip \(PageTime.duration(trip))") }
            if let late = peer.late { words.append("late: \(late)") }
            html.element("dt", text: "peer \(peer.host)")
            html.element("dd", text: words.joined(separator: " · "))
        }
        if canary.peers.isEmpty {
            html.element("dt", text: "peers")
            html.element("dd", text: "none seen yet")
        }
        html.raw("</dl>")
    }

    /// Every kept change, newest first.
    static func history(_ html: inout HTMLWriter, _ changes: [HealthChange]) {
        html.raw("<h2>History</h2>")
        guard !changes.isEmpty else {
            html.raw("<p class=\"note\">No change of health in the last 7 days.</p>")
            return
        }
        html.raw("<ol class=\"history\" id=\"history\">")
        for change in changes.reversed() {
            html.raw("<li>")
            html.element("time", ["datetime": RFC3339.format(change.time)], text: PageTime.full(change.time))
            html.text((change.from?.description ?? "new") + " → ")
            PageDocument.badge(&html, PageHealth(change.to), label: change.to.description)
            let why = PageWords.why(change)
            if !why.isEmpty {
                html.raw(" ")
                html.element("span", ["class": "msg"], text: why)
            }
            html.raw("</li>")
        }
        html.raw("</ol>")
    }
}
