import Foundation
import SyncmonCore
import SyncmonPage
import Testing

/// A pair's page and the paths that name one.
@Suite("Pair page")
struct PairPageTests {
    @Test(
        "paths name a pair, or a pair page's path names none",
        arguments: [
            ("/pair/notes/private", "notes/private" as String?, true),
            ("/pair/a.b-c_d/shared", "a.b-c_d/shared", true),
            ("/pair/notes", nil, true),
            ("/pair/notes/private/x", nil, true),
            ("/pair/%3Cscript%3E/private", nil, true),
            ("/pair//private", nil, true),
            ("/pairs/notes/private", nil, false),
            ("/", nil, false),
        ] as [(String, String?, Bool)])
    func paths(path: String, expected: String?, isPairPath: Bool) {
        let key = PairPage.key(path: path)
        #expect((key != nil) == isPairPath)
        #expect(key??.description == expected)
    }

    @Test("the page shows phases, the failure's message, the canary's peers and the whole history, newest first")
    func page() {
        let changes = [
            HealthChange(time: PageFixture.ago(3 * 1440), from: nil, to: .succeeded),
            HealthChange(time: PageFixture.ago(30), from: .succeeded, to: .error, phase: .export, code: "quotaExceeded", message: "Storage full"),
        ]
        var pair = PageFixture.pair("notes/private", .error, message: "Storage full", changes: changes)
        let peer = CanaryStatus.Peer(host: CanaryHost("laptop")!, seq: 7, lastMoved: PageFixture.ago(2), roundTripSeconds: 3.5, late: nil)
        pair.row.canary = CanaryStatus(host: CanaryHost("box")!, seq: 9, peers: [peer], lateAfter: .seconds(Int64(600)))
        let model = PageModel(host: "box", now: PageFixture.now, pairs: [pair])
        let page = PageFixture.text(PairPage.render(pair, model: model))
        #expect(page.contains("<h1 data-pair=\"notes/private\" data-summary=\"error\">notes/private <b class=\"s-error\">error</b></h1>"))
        #expect(page.contains("<strong>Failing</strong> since 2026-11-28 11:30:00 UTC: quotaExceeded (actionable)<div class=\"msg\">Storage full</div>"))
        #expect(page.contains("<dt>peer laptop</dt><dd>seq 7 · moved 2m ago · round trip 3.5 s</dd>"))
        let newest = page.range(of: "2026-11-28 11:30:00 UTC</time>")
        let oldest = page.range(of: "2026-11-25 12:00:00 UTC</time>")
        #expect(newest != nil && oldest != nil && newest!.lowerBound < oldest!.lowerBound)
    }

    @Test("an unknown pair's page says what was asked for, as text")
    func notFound() {
        let page = PageFixture.text(PairPage.notFound(path: "/pair/<b>x</b>/y", model: PageModel(host: "box", now: PageFixture.now, pairs: [])))
        #expect(page.contains("<code>/pair/&lt;b&gt;x&lt;/b&gt;/y</code>"))
        #expect(!page.contains("<b>"))
    }
}
