import SyncmonPage
import Testing

/// The one HTML writer: every value escaped, in text and in attributes alike.
@Suite("HTML writer")
struct HTMLWriterTests {
    @Test(
        "text is escaped",
        arguments: [
            ("plain", "plain"),
            ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
            ("a & b", "a &amp; b"),
            ("\"quoted\" 'single'", "&quot;quoted&quot; &#39;single&#39;"),
            ("</script><script>alert(1)</script>", "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
            ("tab\tnew\nline", "tab\tnew\nline"),
            ("bell\u{07}esc\u{1B}[31m", "bell\u{FFFD}esc\u{FFFD}[31m"),
            ("naïve — ✓", "naïve — ✓"),
        ])
    func text(input: String, expected: String) {
        var html = HTMLWriter()
        html.text(input)
        #expect(String(decoding: html.bytes, as: UTF8.self) == expected)
    }

    @Test("attribute values are escaped and quoted")
    func attributes() {
        var html = HTMLWriter()
        html.element("a", ["href": "/pair/x\" onclick=\"alert(1)", "title": "<b>"], text: "x<y")
        #expect(String(decoding: html.bytes, as: UTF8.self) == "<a href=\"/pair/x&quot; onclick=&quot;alert(1)\" title=\"&lt;b&gt;\">x&lt;y</a>")
    }
}
