/// The one way syncmon writes HTML (docs/page.md, "Security"): markup is a `StaticString`, fixed
/// when the daemon is built, and every value that varies (an engine name, a database, a failure's
/// message, a detail, a time) goes through ``text(_:)`` or an attribute, which escape it. So a
/// message of `<img src=x onerror=alert(1)>` is shown as those characters and never becomes markup:
/// the type gives no way to write a `String` unescaped.
public struct HTMLWriter: Sendable {
    /// The document so far, UTF-8.
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 16 * 1024) {
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    /// Markup fixed at build time: tags, attribute names, constant words.
    public mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { self.bytes.append(contentsOf: $0) }
    }

    /// A value as text: `&`, `<`, `>`, `"` and `'` escaped, so that it is text in an element and
    /// in a quoted attribute value alike. Control characters other than tab and newline become
    /// U+FFFD, as an engine's text has no business moving the page about.
    public mutating func text(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): self.raw("&amp;")
            case UInt8(ascii: "<"): self.raw("&lt;")
            case UInt8(ascii: ">"): self.raw("&gt;")
            case UInt8(ascii: "\""): self.raw("&quot;")
            case UInt8(ascii: "'"): self.raw("&#39;")
            case 0x09, 0x0A: self.bytes.append(byte)
            case 0x00..<0x20, 0x7F: self.raw("\u{FFFD}")
            default: self.bytes.append(byte)
            }
        }
    }

    /// A whole number as text.
    public mutating func number(_ value: Int64) {
        self.text(String(value))
    }

    /// `<tag>`, or `<tag a="v" b="w">` with each value escaped.
    public mutating func open(_ tag: StaticString, _ attributes: KeyValuePairs<StaticString, String> = [:]) {
        self.raw("<")
        self.raw(tag)
        for (name, value) in attributes { self.attribute(name, value) }
        self.raw(">")
    }

    /// ` name="value"`, the value escaped: for a tag opened with ``raw(_:)`` and closed by the caller.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        self.raw(" ")
        self.raw(name)
        self.raw("=\"")
        self.text(value)
        self.raw("\"")
    }

    /// `</tag>`.
    public mutating func close(_ tag: StaticString) {
        self.raw("</")
        self.raw(tag)
        self.raw(">")
    }

    /// `<tag …>value</tag>`: one element holding text.
    public mutating func element(_ tag: StaticString, _ attributes: KeyValuePairs<StaticString, String> = [:], text: String) {
        self.open(tag, attributes)
        self.text(text)
        self.close(tag)
    }
}
