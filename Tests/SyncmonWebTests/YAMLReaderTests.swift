import Testing

@testable import SyncmonWeb

/// The YAML reader behind `--web.config.file` (docs/configuration.md, "Web configuration"): the
/// part of YAML such files use, read as YAML 1.2 reads it, and everything else refused with a
/// line. Expected trees are written with the helpers below; every node carries its line.
@Suite("YAML reader")
struct YAMLReaderTests {
    static func s(_ text: String, _ line: Int, plain: Bool = true) -> YAMLNode { .scalar(text, plain: plain, line: line) }
    static func q(_ text: String, _ line: Int) -> YAMLNode { .scalar(text, plain: false, line: line) }
    static func m(_ line: Int, _ pairs: (YAMLNode, YAMLNode)...) -> YAMLNode { .mapping(pairs.map { (key: $0.0, value: $0.1) }, line: line) }
    static func l(_ line: Int, _ items: YAMLNode...) -> YAMLNode { .sequence(items, line: line) }

    struct Good: CustomTestStringConvertible, Sendable {
        var name: String
        var yaml: String
        var expected: YAMLNode?
        var testDescription: String { self.name }
    }

    static let good: [Good] = [
        Good(name: "empty", yaml: "", expected: nil),
        Good(name: "comments and blank lines only", yaml: "# a\n\n   # b\n", expected: nil),
        Good(name: "a document marker alone", yaml: "---\n", expected: nil),
        Good(name: "byte order mark", yaml: "\u{FEFF}a: b\n", expected: m(1, (s("a", 1), s("b", 1)))),
        Good(
            name: "nested mappings", yaml: "a:\n  b: c\n  d:\n    e: f\ng: h\n",
            expected: m(1, (s("a", 1), m(2, (s("b", 2), s("c", 2)), (s("d", 3), m(4, (s("e", 4), s("f", 4)))))), (s("g", 5), s("h", 5)))),
        Good(name: "an empty value is a plain empty scalar (null)", yaml: "a:\nb: ~\n", expected: m(1, (s("a", 1), s("", 1)), (s("b", 2), s("~", 2)))),
        Good(name: "comments after keys and values", yaml: "a: # x\n  b: c # y\n# z\n", expected: m(1, (s("a", 1), m(2, (s("b", 2), s("c", 2)))))),
        Good(name: "a # inside a value without a space before it", yaml: "a: b#c\n", expected: m(1, (s("a", 1), s("b#c", 1)))),
        Good(name: "colons inside a value", yaml: "a: http://x:80/y\n", expected: m(1, (s("a", 1), s("http://x:80/y", 1)))),
        Good(
            name: "bcrypt hash", yaml: "alice: $2y$10$90X8b7GcOF4u.VVPYBl8nu/A..x\n",
            expected: m(1, (s("alice", 1), s("$2y$10$90X8b7GcOF4u.VVPYBl8nu/A..x", 1)))),
        Good(name: "block list under a key, indented", yaml: "a:\n  - x\n  - y\n", expected: m(1, (s("a", 1), l(2, s("x", 2), s("y", 3))))),
        Good(
            name: "block list at its key's indentation", yaml: "a:\n- x\n- y\nb: z\n",
            expected: m(1, (s("a", 1), l(2, s("x", 2), s("y", 3))), (s("b", 4), s("z", 4)))),
        Good(
            name: "compact mappings in a list", yaml: "- a: 1\n  b: 2\n- c: 3\n",
            expected: l(1, m(1, (s("a", 1), s("1", 1)), (s("b", 2), s("2", 2))), m(3, (s("c", 3), s("3", 3))))),
        Good(name: "empty list items and nested lists", yaml: "-\n- - a\n  - b\n", expected: l(1, s("", 1), l(2, s("a", 2), s("b", 3)))),
        Good(name: "flow list", yaml: "a: [x, 'y', \"z\"]\n", expected: m(1, (s("a", 1), l(1, s("x", 1), q("y", 1), q("z", 1))))),
        Good(
            name: "flow list over lines, with a trailing comma and a comment", yaml: "a: [\n  x, # one\n  y,\n]\n",
            expected: m(1, (s("a", 1), l(1, s("x", 2), s("y", 3))))),
        Good(
            name: "flow mapping, nested, a key without a value", yaml: "a: {b: c, d: [e], f}\n",
            expected: m(1, (s("a", 1), m(1, (s("b", 1), s("c", 1)), (s("d", 1), l(1, s("e", 1))), (s("f", 1), s("", 1)))))),
        Good(name: "flow mapping with a quoted key and no space after its colon", yaml: "{\"a\":b}\n", expected: m(1, (q("a", 1), s("b", 1)))),
        Good(name: "empty flow collections", yaml: "a: []\nb: {}\n", expected: m(1, (s("a", 1), l(1)), (s("b", 2), m(2)))),
        Good(name: "quoted keys", yaml: "'a b': 1\n\"c\": 2\n", expected: m(1, (q("a b", 1), s("1", 1)), (q("c", 2), s("2", 2)))),
        Good(name: "single quotes: '' is a quote", yaml: "a: 'it''s'\n", expected: m(1, (s("a", 1), q("it's", 1)))),
        Good(
            name: "double-quoted escapes", yaml: #"a: "t\tn\n\"\\\/\x41\u00e9\U0001F600\_\0""# + "\n",
            expected: m(1, (s("a", 1), q("t\tn\n\"\\/A\u{E9}\u{1F600}\u{A0}\u{0}", 1)))),
        Good(name: "quoted text over lines folds", yaml: "a: \"one  \n   two\n\n   three\"\n", expected: m(1, (s("a", 1), q("one two\nthree", 1)))),
        Good(name: "an escaped line break joins", yaml: "a: \"one\\\n   two\"\n", expected: m(1, (s("a", 1), q("onetwo", 1)))),
        Good(name: "quoted values are not null or booleans", yaml: "a: ''\nb: \"true\"\n", expected: m(1, (s("a", 1), q("", 1)), (s("b", 2), q("true", 2)))),
        Good(
            name: "plain text over lines folds", yaml: "a: one\n  two\n\n  three\nb: c\n",
            expected: m(1, (s("a", 1), s("one two\nthree", 1)), (s("b", 5), s("c", 5)))),
        Good(
            name: "literal block scalar (a certificate)", yaml: "cert: |\n  -----BEGIN-----\n  AAAA\n  -----END-----\nkey: k\n",
            expected: m(1, (s("cert", 1), q("-----BEGIN-----\nAAAA\n-----END-----\n", 1)), (s("key", 5), s("k", 5)))),
        Good(
            name: "literal: strip, keep, and text more indented than the first line", yaml: "a: |-\n  x\n    y\n\nb: |+\n  z\n\n\nc: d\n",
            expected: m(1, (s("a", 1), q("x\n  y", 1)), (s("b", 5), q("z\n\n\n", 5)), (s("c", 9), s("d", 9)))),
        Good(
            name: "folded block scalar", yaml: "a: >\n  one\n  two\n\n  three\n    four\n  five\n",
            expected: m(1, (s("a", 1), q("one two\nthree\n  four\nfive\n", 1)))),
        Good(name: "explicit indentation indicator", yaml: "a: |2\n    x\n  y\n", expected: m(1, (s("a", 1), q("  x\ny\n", 1)))),
        Good(name: "an empty block scalar", yaml: "a: |\nb: c\n", expected: m(1, (s("a", 1), q("", 1)), (s("b", 2), s("c", 2)))),
        Good(
            name: "CRLF and lone CR line breaks", yaml: "a: b\r\nc: d\re: f\n",
            expected: m(1, (s("a", 1), s("b", 1)), (s("c", 2), s("d", 2)), (s("e", 3), s("f", 3)))),
        Good(name: "tabs after a key's colon", yaml: "a:\tb\n", expected: m(1, (s("a", 1), s("b", 1)))),
        Good(name: "document start and end markers", yaml: "---\na: b\n...\n# after\n", expected: m(2, (s("a", 2), s("b", 2)))),
        Good(name: "a plain scalar document", yaml: "just text\n", expected: s("just text", 1)),
        Good(name: "no final line break", yaml: "a: b", expected: m(1, (s("a", 1), s("b", 1)))),
    ]

    @Test("reads what web configurations use, with each node's line", arguments: good)
    func reads(_ item: Good) throws {
        #expect(try YAMLReader.read(item.yaml) == item.expected)
    }

    typealias Bad = RefusedText

    static let bad: [Bad] = [
        Bad(name: "unclosed flow list", yaml: "a:\n  b: [x\n", line: 2, message: "the [ opened on this line is not closed"),
        Bad(
            name: "an unclosed flow list before the next key", yaml: "a:\n  b: [x,\n  c: d\n", line: 2,
            message: "the [ opened on this line is not closed"),
        Bad(
            name: "an unclosed flow list before the next key, inside a scalar", yaml: "a: [x\nb: c\n", line: 1,
            message: "the [ opened on this line is not closed"),
        Bad(name: "unclosed flow mapping", yaml: "a: {b: c\n\n", line: 1, message: "the { opened on this line is not closed"),
        Bad(name: "unclosed quote", yaml: "a: 'x\n\nb: c\n", line: 1, message: "the quoted text opened on this line is not closed"),
        Bad(name: "tab indentation", yaml: "a:\n\tb: c\n", line: 2, message: "a tab in the indentation"),
        Bad(name: "duplicate key", yaml: "a: 1\nb: 2\na: 3\n", line: 3, message: "duplicate key a"),
        Bad(name: "duplicate key in a flow mapping", yaml: "x: {a: 1, a: 2}\n", line: 1, message: "duplicate key a"),
        Bad(name: "a value with ': ' in it", yaml: "a: b: c\n", line: 1, message: "a ': ' inside a value"),
        Bad(name: "a key on a continuation line", yaml: "a: b\n  c: d\n", line: 2, message: "a ': ' inside a value"),
        Bad(name: "more indented than its siblings", yaml: "a:\n  b: 1\n    c: 2\n", line: 3, message: "a ': ' inside a value"),
        Bad(name: "between two indentations", yaml: "a:\n  b: 1\n c: 2\n", line: 3, message: "unexpected indentation"),
        Bad(name: "a line that is not key: value", yaml: "a: 1\nb\n", line: 2, message: "a key (key: value) was expected"),
        Bad(name: "a list item among keys", yaml: "a: 1\n- b\n", line: 2, message: "a list item where a key was expected"),
        Bad(name: "a list on its key's line", yaml: "a: - b\n", line: 1, message: "a list cannot start on its key's line"),
        Bad(name: "anchor", yaml: "a: &x b\n", line: 1, message: "anchors (&) are not supported"),
        Bad(name: "alias", yaml: "a: *x\n", line: 1, message: "aliases (*) are not supported"),
        Bad(name: "tag", yaml: "a: !!str b\n", line: 1, message: "tags (!) are not supported"),
        Bad(name: "directive", yaml: "%YAML 1.2\n---\na: b\n", line: 1, message: "directives (%) are not supported"),
        Bad(name: "complex key", yaml: "? a\n: b\n", line: 1, message: "complex keys (?) are not supported"),
        Bad(name: "complex key after a key", yaml: "a: 1\n? b\n: c\n", line: 2, message: "complex keys (?) are not supported"),
        Bad(name: "anchor on a key", yaml: "a: 1\n&x b: c\n", line: 2, message: "anchors (&) are not supported"),
        Bad(name: "a mapping as a flow key", yaml: "x: {[a]: b}\n", line: 1, message: "a mapping or list as a key is not supported"),
        Bad(name: "a second document", yaml: "a: b\n---\nc: d\n", line: 2, message: "a second document"),
        Bad(name: "text after the end marker", yaml: "a: b\n...\nc: d\n", line: 3, message: "text after the end of the document"),
        Bad(name: "text after a flow list", yaml: "a: [b] c\n", line: 1, message: "unexpected text after the closing bracket"),
        Bad(name: "a colon after a quoted value", yaml: "a: 'b': c\n", line: 1, message: "a ':' after the quoted text"),
        Bad(name: "a comment with no space before it", yaml: "a: 'b'#c\n", line: 1, message: "a comment needs a space before its #"),
        Bad(name: "unknown escape", yaml: "a: \"\\q\"\n", line: 1, message: "unknown escape \\q"),
        Bad(name: "short hex escape", yaml: "a: \"\\u12\"\n", line: 1, message: "needs 4 hexadecimal digits"),
        Bad(name: "escape of a surrogate", yaml: "a: \"\\uD800\"\n", line: 1, message: "names no Unicode character"),
        Bad(name: "a control character", yaml: "a: b\nc: \u{1}\n", line: 2, message: "control character 0x1"),
        Bad(name: "a bad block scalar header", yaml: "a: |x\n  b\n", line: 1, message: "a block scalar's header"),
        Bad(name: "a leading empty line more indented than the text", yaml: "a: |\n     \n  b\n", line: 3, message: "a leading empty line"),
        Bad(name: "a key: value inside [ ]", yaml: "a: [b: c]\n", line: 1, message: "a key: value pair inside [ ]"),
        Bad(name: "a block scalar inside [ ]", yaml: "a: [|]\n", line: 1, message: "a block scalar (| or >) cannot be inside"),
        Bad(name: "nested too deep", yaml: String(repeating: "[", count: 65), line: 1, message: "nested more than 64 levels deep"),
        Bad(
            name: "nested too deep in blocks", yaml: (0..<65).map { String(repeating: " ", count: $0) + "- \n" }.joined(), line: 65,
            message: "nested more than 64 levels deep"),
    ]

    @Test("refuses what it does not read, naming the line and what to change", arguments: bad)
    func refuses(_ item: Bad) {
        guard let error = item.expectRefused(by: YAMLReader.read) else { return }
        // Duplicate keys are valid YAML syntax with a wrong meaning; the rest is not YAML here.
        #expect(error.message.hasPrefix("not valid YAML: ") || error.message.hasPrefix("duplicate key "), "\(error)")
    }

    /// The document's own level counts: 63 brackets are 64 levels.
    @Test("deep but allowed nesting reads")
    func deepNesting() throws {
        let text = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        var node = try #require(try YAMLReader.read(text))
        var levels = 1
        while case .sequence(let items, _) = node, let inner = items.first {
            node = inner
            levels += 1
        }
        #expect(levels == 63)
    }
}
