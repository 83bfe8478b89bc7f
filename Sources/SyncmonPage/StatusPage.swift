import SyncmonCore

/// `GET /` (docs/page.md): every pair in one table, problems first then by name. Each row is
/// `<tr data-pair="ENGINE/DATABASE" data-summary="SUMMARY">` with the summary as a badge, the
/// DETAIL of `syncmon status`, the last successful import and export, the canary's round trip and
/// the 24-hour strip; the header has the host, the count per health state and the page's time.
/// Complete without JavaScript; the script refreshes the parts marked `data-live` in place.
public enum StatusPage {
    /// The page's bytes.
    public static func render(_ model: PageModel) -> [UInt8] {
        var html = HTMLWriter(capacity: 4096 + model.pairs.count * 480)
        PageDocument.open(&html, title: self.title(model))
        html.raw("<header id=\"head\" data-live><h1>syncmon ")
        html.element("span", ["class": "host"], text: model.host)
        html.raw("</h1><ul class=\"counts\" aria-label=\"pairs per health state\">")
        for (health, count) in model.counts {
            html.open("li", ["class": "b s-\(health)", "data-health": health.description, "data-count": String(count)])
            html.text("\(count) \(health)")
            html.close("li")
        }
        html.raw("</ul>")
        PageDocument.asOf(&html, model, pairs: model.pairs.count)
        html.raw("</header>\n<main><p class=\"stale\" id=\"stale\" hidden></p>")
        if model.pairs.isEmpty {
            html.raw("<p class=\"note\" id=\"rows\" data-live>No pair is tracked yet: engines appear here once they report ")
            html.raw("(<code>syncmon emit</code>, <code>syncmon wrap</code>, a <code>--subscribe</code> source).</p>")
        } else {
            html.raw("<table class=\"pairs\"><thead><tr><th>Pair</th><th>Health</th><th>Detail</th><th>Last import</th>")
            html.raw("<th>Last export</th><th>Canary</th><th>Last 24 hours</th></tr></thead>\n<tbody id=\"rows\" data-live>\n")
            for pair in model.pairs { self.row(&html, pair, now: model.now) }
            html.raw("</tbody></table>")
        }
        PageDocument.legend(&html)
        html.raw("</main>\n")
        PageDocument.close(&html)
        return html.bytes
    }

    /// `syncmon · HOST · 1 error, 19 ok`.
    static func title(_ model: PageModel) -> String {
        let counts = model.counts.map { "\($0.count) \($0.health)" }
        return "syncmon · \(model.host) · " + (counts.isEmpty ? "no pairs" : counts.joined(separator: ", "))
    }

    /// One pair's row. Cells and rows are not closed (HTML closes them at the next one, the
    /// parser's rule for tables), which keeps a row some 40 bytes shorter at 1,000 pairs.
    static func row(_ html: inout HTMLWriter, _ pair: PagePair, now: Timestamp) {
        let row = pair.row
        let name = row.key.description
        html.open("tr", ["data-pair": name, "data-summary": row.summary.description])
        html.raw("<td>")
        html.element("a", ["href": PairPage.path(of: row.key)], text: name)
        html.raw("<td>")
        PageDocument.badge(&html, PageHealth(row.summary), label: row.summary.description)
        html.raw("<td>")
        html.text(StatusDetail.text(for: row, now: now))
        html.raw("<td>")
        if let time = pair.lastImport { html.text(PageTime.age(of: time, at: now)) }
        html.raw("<td>")
        if let time = pair.lastExport { html.text(PageTime.age(of: time, at: now)) }
        html.raw("<td>")
        if let canary = row.canary { html.text(self.canary(canary)) }
        html.raw("<td>")
        HistoryStrip(changes: pair.changes, now: now).write(to: &html)
        html.raw("\n")
    }

    /// The canary's cell: the late peers, else the slowest peer's last round trip. An empty cell
    /// (a dash, by the stylesheet) is a pair without a canary, as a time never seen is "never":
    /// the exact times are on the pair's page, as every byte of a row counts at 1,000 pairs.
    static func canary(_ canary: CanaryStatus) -> String {
        let late = canary.latePeers
        if !late.isEmpty { return "late: " + late.map(\.description).joined(separator: ", ") }
        if let slowest = canary.peers.compactMap(\.roundTripSeconds).max() { return PageTime.duration(slowest) }
        return canary.peers.isEmpty ? "no peer yet" : "no round trip yet"
    }
}
