import Foundation
import SyncmonCore
import SyncmonPage
import Testing

/// The status page at `/`: the order of rows, what each row says, escaping, the size bound.
@Suite("Status page")
struct StatusPageTests {
    @Test(
        "problems first (critical, unknown, warning, other not-ok), then by name",
        arguments: [
            (
                [("b/private", Summary.succeeded), ("a/private", .error), ("c/private", .stalled), ("a/shared", .noNetwork)],
                ["a/private", "c/private", "a/shared", "b/private"]
            ),
            (
                [("z/private", .inProgress), ("y/private", .stopped), ("x/private", .unknown), ("w/private", .notStarted)],
                ["x/private", "y/private", "w/private", "z/private"]
            ),
            (
                [("m/public", .engineDown), ("m/private", .retrying), ("m/shared", .engineDown), ("a/private", .throttled)],
                // Databases in the table's order: private, shared, public.
                ["m/shared", "m/public", "a/private", "m/private"]
            ),
        ] as [([(String, Summary)], [String])])
    func order(pairs: [(String, Summary)], expected: [String]) {
        let model = PageModel(host: "h", now: PageFixture.now, pairs: pairs.map { PageFixture.pair($0.0, $0.1) })
        #expect(PageFixture.rowPairs(PageFixture.text(StatusPage.render(model))) == expected)
    }

    @Test("a row carries the pair, the summary, the badge's words and the detail")
    func row() {
        let model = PageModel(host: "box", now: PageFixture.now, pairs: [PageFixture.pair("notes/private", .error, message: "Storage full")])
        let page = PageFixture.text(StatusPage.render(model))
        #expect(page.contains("<tr data-pair=\"notes/private\" data-summary=\"error\">"))
        #expect(page.contains("<a href=\"/pair/notes/private\">notes/private</a>"))
        #expect(page.contains("<b class=\"s-error\">error</b>"))
        #expect(page.contains("<td>export: quotaExceeded since 11:30 — Storage full<td>"))
        #expect(page.contains("<td>5m ago<td><td><td><svg"))
        #expect(page.contains("data-health=\"error\" data-count=\"1\""))
        #expect(page.contains("<span class=\"host\">box</span>"))
        #expect(page.contains("<time datetime=\"2026-11-28T12:00:00Z\">2026-11-28 12:00:00 UTC</time>"))
        #expect(page.contains("<meta name=\"viewport\""))
    }

    @Test(
        "engine-supplied text is shown as text, never markup",
        arguments: ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "\"><svg onload=alert(1)>"])
    func hostile(message: String) {
        let change = HealthChange(time: PageFixture.ago(30), from: .succeeded, to: .error, phase: .export, code: "quotaExceeded", message: message)
        let pair = PageFixture.pair("notes/private", .error, message: message, changes: [change])
        let model = PageModel(host: "box", now: PageFixture.now, pairs: [pair])
        for page in [StatusPage.render(model), PairPage.render(pair, model: model)].map(PageFixture.text) {
            #expect(!page.contains(message))
            #expect(!page.contains("<img") && !page.contains("<script>") && !page.contains("<svg onload"))
            var escaped = HTMLWriter()
            escaped.text(message)
            #expect(page.contains(PageFixture.text(escaped.bytes)))
        }
    }

    @Test("the page for 1,000 pairs stays within 64 KiB and 400 bytes a pair")
    func sizeBound() {
        for count in [0, 1, 100, 1_000] {
            let page = StatusPage.render(PageSample.model(pairs: count, now: PageFixture.now))
            #expect(page.count <= PageSample.sizeLimit(pairs: count), "\(count) pairs: \(page.count) bytes")
            #expect(PageFixture.rowPairs(PageFixture.text(page)).count == count)
        }
    }

    @Test("no pair yet says how pairs appear")
    func empty() {
        let page = PageFixture.text(StatusPage.render(PageModel(host: "box", now: PageFixture.now, pairs: [])))
        #expect(page.contains("No pair is tracked yet"))
        #expect(page.contains("syncmon · box · no pairs"))
    }

    @Test("the old landing page's links stay reachable, and nothing comes from another origin")
    func links() {
        let page = PageFixture.text(StatusPage.render(PageSample.model(pairs: 30, now: PageFixture.now)))
        for link in ["/metrics", "/healthz", "/api/v1/status", "/api/v1/history"] { #expect(page.contains("href=\"\(link)\"")) }
        #expect(page.contains("href=\"\(PageAsset.stylesheet.path)\"") && page.contains("src=\"\(PageAsset.script.path)\""))
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"))
        #expect(!page.contains("style=\"") && !page.contains("<style") && !page.contains("onclick"))
    }
}
