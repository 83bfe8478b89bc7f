import Testing

@testable import SyncmonPage

/// The stylesheet and script: content-hashed names, looked up by path.
@Suite("Page assets")
struct PageAssetTests {
    @Test("each asset is served under its content hash and found by its path")
    func names() {
        for asset in PageAsset.all {
            #expect(asset.path.contains(PageAsset.hash(asset.bytes)))
            #expect(PageAsset.named(asset.path)?.bytes == asset.bytes)
        }
        #expect(PageAsset.named("/static/page.css") == nil)
        #expect(PageAsset.stylesheet.path.hasSuffix(".css") && PageAsset.script.path.hasSuffix(".js"))
    }

    @Test("FNV-1a as 16 hex digits", arguments: [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")])
    func hash(input: String, expected: String) {
        #expect(PageAsset.hash(Array(input.utf8)) == expected)
    }

    @Test("the stylesheet has a dark scheme and a phone layout; the script refreshes every 10 s")
    func content() {
        let css = String(decoding: PageAsset.stylesheet.bytes, as: UTF8.self)
        #expect(css.contains("@media (prefers-color-scheme:dark)") && css.contains("@media (max-width:760px)"))
        let script = String(decoding: PageAsset.script.bytes, as: UTF8.self)
        #expect(script.contains("var every = 10000;") && script.contains("data-live"))
    }
}
