/// An error's `message` as syncmon keeps it (docs/protocol.md#event-types): the first 256 bytes
/// of UTF-8, cut between characters, with control characters escaped (`\n`, `\t`, `\r`,
/// `\u001b`, C1 controls too) so that it never breaks a table line, a terminal or a journal
/// field, and invalid UTF-8 replaced.
public enum ErrorMessage {
    /// The most bytes of UTF-8 a kept message has.
    public static let maximumBytes = 256

    /// `text` cut and escaped; `nil` when nothing but white space is left.
    public static func clean(_ text: some StringProtocol) -> String? {
        // White space around the text (a line's own newline) is not part of the message.
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let utf8 = String(text).utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return nil }
        var sink = ErrorMessageSink()
        for byte in utf8[first...last] {
            sink.append(byte)
            if sink.isFull { break }
        }
        return sink.text
    }

    /// `bytes` (any encoding: invalid UTF-8 becomes U+FFFD) cut and escaped; `nil` when empty.
    public static func clean(bytes: some Collection<UInt8>) -> String? {
        self.clean(String(decoding: bytes, as: UTF8.self))
    }
}

/// Collects a message's UTF-8 into 256 bytes kept inline, escaping control characters and
/// stopping at the first character that does not fit: decoding one allocates only the final
/// string (none for a short one), however long the message on the line.
struct ErrorMessageSink: JSONStringSink {
    private typealias Eight = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private static let zero: Eight = (0, 0, 0, 0, 0, 0, 0, 0)
    /// 256 bytes, inline (a homogeneous tuple is laid out contiguously).
    private var buffer: (Eight, Eight, Eight, Eight) = (zero, zero, zero, zero)
    private var count = 0
    /// The end of the last character that is not white space: white space around the message
    /// (a line's own newline) is not kept.
    private var contentEnd = 0
    /// A character did not fit: everything after it is dropped.
    private(set) var isFull = false
    /// Bytes of the multi-byte character being read, and how many it has.
    private var pending: UInt32 = 0
    private var pendingCount = 0
    private var pendingLength = 0

    init() {}

    mutating func append(_ byte: UInt8) {
        if self.isFull { return }
        if self.pendingLength > 0 {
            self.pending = self.pending << 8 | UInt32(byte)
            self.pendingCount += 1
            if self.pendingCount == self.pendingLength { self.flushPending() }
            return
        }
        let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
        if isSpace, self.count == 0 { return }
        defer { if !isSpace, !self.isFull { self.contentEnd = self.count } }
        switch byte {
        case 0x0A: self.write("\\n")
        case 0x09: self.write("\\t")
        case 0x0D: self.write("\\r")
        case 0x00..<0x20, 0x7F: self.writeEscape(UInt32(byte))
        case 0x20..<0x80: self.write(byte)
        default:
            // A lead byte (the scanner and `String` hand over valid UTF-8 only).
            self.pending = UInt32(byte)
            self.pendingCount = 1
            self.pendingLength = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        }
    }

    /// Writes the multi-byte character just read, escaped if it is a C1 control (U+0080–U+009F).
    private mutating func flushPending() {
        let length = self.pendingLength
        let value = self.pending
        self.pendingLength = 0
        defer { if !self.isFull { self.contentEnd = self.count } }
        if length == 2, value >= 0xC280, value <= 0xC29F {
            self.writeEscape(value & 0xFF)
            return
        }
        guard self.count + length <= ErrorMessage.maximumBytes else {
            self.isFull = true
            return
        }
        for index in (0..<length).reversed() { self.store(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    private mutating func writeEscape(_ scalar: UInt32) {
        guard self.count + 6 <= ErrorMessage.maximumBytes else {
            self.isFull = true
            return
        }
        func hex(_ digit: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: digit < 10 ? 0x30 + digit : 0x57 + digit) }
        for byte in "\\u00".utf8 { self.store(byte) }
        self.store(hex(scalar >> 4 & 0xF))
        self.store(hex(scalar & 0xF))
    }

    private mutating func write(_ text: StaticString) {
        guard self.count + text.utf8CodeUnitCount <= ErrorMessage.maximumBytes else {
            self.isFull = true
            return
        }
        text.withUTF8Buffer { for byte in $0 { self.store(byte) } }
    }

    private mutating func write(_ byte: UInt8) {
        guard self.count < ErrorMessage.maximumBytes else {
            self.isFull = true
            return
        }
        self.store(byte)
    }

    private mutating func store(_ byte: UInt8) {
        let index = self.count
        withUnsafeMutableBytes(of: &self.buffer) { $0[index] = byte }
        self.count += 1
    }

    /// The message kept, without white space around it; `nil` when nothing else was in it.
    var text: String? {
        let end = self.contentEnd
        guard end > 0 else { return nil }
        return withUnsafeBytes(of: self.buffer) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[0..<end]), as: UTF8.self) }
    }
}
