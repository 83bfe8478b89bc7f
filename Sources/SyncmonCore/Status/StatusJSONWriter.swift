/// Writes JSON the way the status document has always been written (Foundation's
/// `JSONEncoder` with sorted keys and unescaped slashes, pretty or compact), straight into one
/// byte array.
///
/// The encoder built a tree of values for the whole document and grew its output through
/// several copies: 6 ms of a 0.2 s replay for 400 pairs, and about 150 ms for a `GET
/// /api/v1/status` at 10,000. The callers name the keys in sorted order themselves (the order
/// is the wire form's, docs/protocol.md "Status JSON"), and a test compares every document shape
/// with the encoder's output byte for byte.
struct StatusJSONWriter {
    private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var depth = 0
    /// Whether the open object or array has a member yet: where a comma goes.
    private var hasMember = false

    init(pretty: Bool, capacity: Int) {
        self.pretty = pretty
        self.bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    /// Opens an object as the value of the key just written (or at the top, or in an array).
    mutating func openObject() { self.open(UInt8(ascii: "{")) }
    mutating func closeObject() { self.close(UInt8(ascii: "}")) }
    mutating func openArray() { self.open(UInt8(ascii: "[")) }
    mutating func closeArray() { self.close(UInt8(ascii: "]")) }

    /// Starts the next member of the open object: the separator, the indentation and the key.
    /// `key` is plain ASCII that needs no escape.
    mutating func key(_ key: StaticString) {
        self.key(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    }

    /// A key spelled at run time (a label), likewise plain ASCII.
    mutating func key(_ key: String) {
        var key = key
        key.withUTF8 { self.key(UnsafeRawBufferPointer($0)) }
    }

    private mutating func key(_ key: UnsafeRawBufferPointer) {
        self.nextMember()
        self.bytes.append(UInt8(ascii: "\""))
        self.bytes.append(contentsOf: key)
        self.bytes.append(UInt8(ascii: "\""))
        if self.pretty {
            self.bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
        } else {
            self.bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Starts the next element of the open array.
    mutating func element() { self.nextMember() }

    private mutating func open(_ bracket: UInt8) {
        self.bytes.append(bracket)
        self.depth += 1
        self.hasMember = false
    }

    /// The encoder's form: an empty container is `[\n\n<indent>]` when pretty, `[]` when not.
    private mutating func close(_ bracket: UInt8) {
        self.depth -= 1
        if self.pretty {
            if !self.hasMember { self.bytes.append(UInt8(ascii: "\n")) }
            self.newline()
        }
        self.bytes.append(bracket)
        self.hasMember = true
    }

    private mutating func nextMember() {
        if self.hasMember { self.bytes.append(UInt8(ascii: ",")) }
        self.hasMember = true
        if self.pretty { self.newline() }
    }

    private mutating func newline() {
        self.bytes.append(UInt8(ascii: "\n"))
        self.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * self.depth))
    }

    // MARK: Values

    mutating func string(_ text: String) {
        JSONText.appendQuoted(text, to: &self.bytes)
    }

    /// A string's UTF-8 bytes, escaped as the encoder escapes them (``JSONText/appendQuoted(_:to:)``).
    mutating func string(_ utf8: UnsafeRawBufferPointer) {
        JSONText.appendQuoted(utf8, to: &self.bytes)
    }

    mutating func name(_ name: InlineName) {
        name.withBytes { self.string($0) }
    }

    /// A time as RFC 3339 text.
    mutating func time(_ time: Timestamp) { self.string(RFC3339.format(time)) }

    mutating func time(_ time: Timestamp?) {
        if let time { self.time(time) } else { self.null() }
    }

    mutating func integer(_ value: some BinaryInteger) {
        self.bytes.append(contentsOf: String(value).utf8)
    }

    mutating func boolean(_ value: Bool) {
        self.bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// As the encoder writes a `Double`: its shortest form, without a trailing `.0`. A value
    /// that is not finite, which the encoder refuses, is written as `null`.
    mutating func number(_ value: Double) {
        guard value.isFinite else { return self.null() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        self.bytes.append(contentsOf: text.utf8)
    }

    mutating func null() {
        self.bytes.append(contentsOf: "null".utf8)
    }
}
