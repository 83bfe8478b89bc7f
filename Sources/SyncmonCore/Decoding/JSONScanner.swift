/// A byte-level JSON reader over one line, for the event decoder.
///
/// It reads values in place: strings are validated (UTF-8, escapes, control characters) and
/// their decoded bytes handed to a sink, numbers are classified without building a `String`,
/// and values nobody asked for are skipped but still checked, so a line is either fully valid
/// JSON or rejected as malformed. Nothing here allocates.
struct JSONScanner {
    /// The line, without its newline.
    let bytes: UnsafeRawBufferPointer
    /// The read position.
    var position = 0

    /// Values nested deeper than this are rejected instead of recursing further.
    static let maximumDepth = 64

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The byte at the read position, or 0 at the end (0 never starts a valid token).
    @inline(__always)
    var current: UInt8 {
        self.position < self.bytes.count ? self.bytes[self.position] : 0
    }

    @inline(__always)
    var isAtEnd: Bool { self.position >= self.bytes.count }

    @inline(__always)
    mutating func skipWhitespace() {
        while self.position < self.bytes.count {
            switch self.bytes[self.position] {
            case 0x20, 0x09, 0x0A, 0x0D: self.position += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after whitespace) or throws.
    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(MalformedJSON) {
        self.skipWhitespace()
        guard self.current == byte else { throw MalformedJSON() }
        self.position += 1
    }

    /// Consumes `byte` (after whitespace) when it is next.
    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        self.skipWhitespace()
        guard self.current == byte else { return false }
        self.position += 1
        return true
    }

    /// Consumes `pattern` when the bytes at the read position are exactly it: two masked word
    /// compares instead of scanning the string for its end and matching it. `false`, moving
    /// nothing, when fewer than 16 bytes are left.
    @inline(__always)
    mutating func consume(_ pattern: KeyPattern) -> Bool {
        guard self.position + 16 <= self.bytes.count else { return false }
        let first = self.bytes.loadUnaligned(fromByteOffset: self.position, as: UInt64.self)
        let second = self.bytes.loadUnaligned(fromByteOffset: self.position + 8, as: UInt64.self)
        guard first & pattern.masks.0 == pattern.words.0, second & pattern.masks.1 == pattern.words.1 else { return false }
        self.position += pattern.length
        return true
    }

    /// Reads the literal `true`, `false` or `null` whose first byte is at the read position.
    mutating func literal() throws(MalformedJSON) -> JSONLiteral {
        func matches(_ text: StaticString) -> Bool {
            let length = text.utf8CodeUnitCount
            guard self.position + length <= self.bytes.count else { return false }
            for index in 0..<length where self.bytes[self.position + index] != text.utf8Start[index] { return false }
            return true
        }
        if matches("true") {
            self.position += 4
            return .true
        }
        if matches("false") {
            self.position += 5
            return .false
        }
        if matches("null") {
            self.position += 4
            return .null
        }
        throw MalformedJSON()
    }

    /// Reads a string (the read position is at its opening quote), passing the decoded bytes to `sink`.
    mutating func string<Sink: JSONStringSink>(into sink: inout Sink) throws(MalformedJSON) {
        self.position += 1
        let count = self.bytes.count
        while self.position < count {
            let byte = self.bytes[self.position]
            switch byte {
            case UInt8(ascii: "\""):
                self.position += 1
                return
            case UInt8(ascii: "\\"):
                try self.escape(into: &sink)
            case 0x00..<0x20:
                throw MalformedJSON()
            case 0x20..<0x80:
                sink.append(byte)
                self.position += 1
            default:
                try self.multibyte(into: &sink)
            }
        }
        throw MalformedJSON()
    }

    /// Reads a string (the read position is at its opening quote) and hands its content to
    /// `body`: in place when it has no escapes (the common case: no copy at all), else decoded
    /// into a 64-byte buffer, or `nil` when the decoded string would not fit there.
    @inline(__always)
    mutating func withString<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) throws(MalformedJSON) -> Result {
        if let end = self.plainEnd() {
            let start = self.position + 1
            self.position = end + 1
            return body(UnsafeRawBufferPointer(rebasing: self.bytes[start..<end]))
        }
        // Escapes or non-ASCII: the careful path, which also validates.
        var sink = InlineNameSink()
        try self.string(into: &sink)
        if sink.overflowed { return body(nil) }
        return sink.name.withBytes { body($0) }
    }

    /// The index of the closing quote of the string that opens at the read position, when
    /// nothing before it needs the careful path (a backslash, a control character, a non-ASCII
    /// byte, or the end of the line); `nil` otherwise. Moves nothing.
    ///
    /// Eight bytes at a time (SWAR: "has zero byte" tricks on one word), then byte by byte for
    /// the last few.
    @inline(__always)
    func plainEnd() -> Int? {
        var index = self.position + 1
        let count = self.bytes.count
        if let base = self.bytes.baseAddress {
            while index + 8 <= count {
                let stops = Self.stops(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if stops != 0 {
                    // The lowest flagged byte is exact (the tricks' false positives only sit
                    // above a true one): the string ends there, or the careful path starts.
                    index += stops.trailingZeroBitCount / 8
                    return self.bytes[index] == UInt8(ascii: "\"") ? index : nil
                }
                index += 8
            }
        }
        while index < count {
            let byte = self.bytes[index]
            if byte == UInt8(ascii: "\"") { return index }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            index += 1
        }
        return nil
    }

    /// The high bit of each byte of `word` that is `"`, `\\`, below 0x20 or at/above 0x80 (a
    /// little-endian load, so the lowest set bit marks the first such byte); 0 when none is.
    @inline(__always)
    static func stops(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let backslash = hasZeroByte(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return quote | backslash | control | (word & highs)
    }

    /// Skips a string, validating it: plain ASCII eight bytes at a time, the rest carefully.
    mutating func skipString() throws(MalformedJSON) {
        if let end = self.plainEnd() {
            self.position = end + 1
            return
        }
        var sink = DiscardingSink()
        try self.string(into: &sink)
    }

    /// Decodes one escape sequence; the read position is at the backslash.
    private mutating func escape<Sink: JSONStringSink>(into sink: inout Sink) throws(MalformedJSON) {
        guard self.position + 1 < self.bytes.count else { throw MalformedJSON() }
        let kind = self.bytes[self.position + 1]
        self.position += 2
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): sink.append(kind)
        case UInt8(ascii: "b"): sink.append(0x08)
        case UInt8(ascii: "f"): sink.append(0x0C)
        case UInt8(ascii: "n"): sink.append(0x0A)
        case UInt8(ascii: "r"): sink.append(0x0D)
        case UInt8(ascii: "t"): sink.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try self.hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard self.position + 1 < self.bytes.count, self.bytes[self.position] == UInt8(ascii: "\\"),
                    self.bytes[self.position + 1] == UInt8(ascii: "u")
                else { throw MalformedJSON() }
                self.position += 2
                let low = try self.hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw MalformedJSON() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw MalformedJSON()
            }
            Self.appendUTF8(scalar, to: &sink)
        default:
            throw MalformedJSON()
        }
    }

    private mutating func hex4() throws(MalformedJSON) -> UInt32 {
        guard self.position + 4 <= self.bytes.count else { throw MalformedJSON() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = self.bytes[self.position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw MalformedJSON()
            }
            value = value << 4 | digit
            self.position += 1
        }
        return value
    }

    private static func appendUTF8<Sink: JSONStringSink>(_ scalar: UInt32, to sink: inout Sink) {
        switch scalar {
        case 0..<0x80:
            sink.append(UInt8(scalar))
        case 0x80..<0x800:
            sink.append(UInt8(0xC0 | scalar >> 6))
            sink.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            sink.append(UInt8(0xE0 | scalar >> 12))
            sink.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            sink.append(UInt8(0x80 | scalar & 0x3F))
        default:
            sink.append(UInt8(0xF0 | scalar >> 18))
            sink.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            sink.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            sink.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence (no overlongs, surrogates or values past
    /// U+10FFFF, per RFC 3629) and passes it through.
    private mutating func multibyte<Sink: JSONStringSink>(into sink: inout Sink) throws(MalformedJSON) {
        let lead = self.bytes[self.position]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upperBound = 0x9F
        case 0xF0:
            length = 4
            lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upperBound = 0x8F
        default: throw MalformedJSON()
        }
        guard self.position + length <= self.bytes.count else { throw MalformedJSON() }
        let second = self.bytes[self.position + 1]
        guard second >= lowerBound, second <= upperBound else { throw MalformedJSON() }
        for index in 2..<max(length, 2) where self.bytes[self.position + index] & 0xC0 != 0x80 {
            throw MalformedJSON()
        }
        for index in 0..<length { sink.append(self.bytes[self.position + index]) }
        self.position += length
    }

    /// Reads a number (the read position is at its first byte) per the JSON grammar.
    /// The common integer read in one pass: 1 to 18 digits without a sign or a leading zero,
    /// followed by a byte that does not continue a number (not a digit, `.`, `e` or `E`).
    /// `nil`, moving nothing, for anything else, which ``number()`` then reads (and judges).
    @inline(__always)
    mutating func plainInteger() -> Int64? {
        let count = self.bytes.count
        var index = self.position
        var value: Int64 = 0
        while index < count, case let digit = self.bytes[index] &- UInt8(ascii: "0"), digit <= 9 {
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        let digits = index - self.position
        guard digits >= 1, digits <= 18, index < count, digits == 1 || self.bytes[self.position] != UInt8(ascii: "0") else { return nil }
        switch self.bytes[index] {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default:
            self.position = index
            return value
        }
    }

    mutating func number() throws(MalformedJSON) -> JSONNumber {
        let start = self.position
        let count = self.bytes.count
        var negative = false
        if self.current == UInt8(ascii: "-") {
            negative = true
            self.position += 1
        }
        var integer: Int64 = 0
        var overflow = false
        let digitsStart = self.position
        while self.position < count, case let byte = self.bytes[self.position], byte >= 0x30, byte <= 0x39 {
            let digit = Int64(byte - 0x30)
            let (shifted, o1) = integer.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            integer = sum
            self.position += 1
        }
        let digitCount = self.position - digitsStart
        guard digitCount > 0 else { throw MalformedJSON() }
        // No leading zeros ("01" is not JSON).
        guard digitCount == 1 || self.bytes[digitsStart] != UInt8(ascii: "0") else { throw MalformedJSON() }
        var isInteger = true
        if self.current == UInt8(ascii: ".") {
            isInteger = false
            self.position += 1
            let fractionStart = self.position
            while self.position < count, self.bytes[self.position] >= 0x30, self.bytes[self.position] <= 0x39 {
                self.position += 1
            }
            guard self.position > fractionStart else { throw MalformedJSON() }
        }
        if self.current == UInt8(ascii: "e") || self.current == UInt8(ascii: "E") {
            isInteger = false
            self.position += 1
            if self.current == UInt8(ascii: "+") || self.current == UInt8(ascii: "-") { self.position += 1 }
            let exponentStart = self.position
            while self.position < count, self.bytes[self.position] >= 0x30, self.bytes[self.position] <= 0x39 {
                self.position += 1
            }
            guard self.position > exponentStart else { throw MalformedJSON() }
        }
        if negative { integer = 0 &- integer }
        return JSONNumber(
            text: UnsafeRawBufferPointer(rebasing: self.bytes[start..<self.position]),
            integer: isInteger && !overflow ? integer : nil,
            isInteger: isInteger
        )
    }

    /// Skips any value, validating it; `depth` bounds nesting.
    mutating func skipValue(depth: Int = 0) throws(MalformedJSON) {
        guard depth < Self.maximumDepth else { throw MalformedJSON() }
        self.skipWhitespace()
        switch self.current {
        case UInt8(ascii: "\""):
            try self.skipString()
        case UInt8(ascii: "{"):
            self.position += 1
            if self.consume(UInt8(ascii: "}")) { return }
            repeat {
                self.skipWhitespace()
                guard self.current == UInt8(ascii: "\"") else { throw MalformedJSON() }
                try self.skipString()
                try self.expect(UInt8(ascii: ":"))
                try self.skipValue(depth: depth + 1)
            } while self.consume(UInt8(ascii: ","))
            try self.expect(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            self.position += 1
            if self.consume(UInt8(ascii: "]")) { return }
            repeat {
                try self.skipValue(depth: depth + 1)
            } while self.consume(UInt8(ascii: ","))
            try self.expect(UInt8(ascii: "]"))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try self.number()
        default:
            _ = try self.literal()
        }
    }
}

/// The line is not valid JSON (or nests too deeply).
struct MalformedJSON: Error {}

/// `true`, `false` or `null`.
enum JSONLiteral {
    case `true`, `false`, null
}

/// A JSON number as read: its text, and its value when it is an integer that fits `Int64`.
struct JSONNumber {
    /// The number's bytes in the line.
    var text: UnsafeRawBufferPointer
    /// The value, when the literal is an integer (no fraction or exponent) within `Int64`.
    var integer: Int64?
    /// Whether the literal has neither fraction nor exponent (it may still overflow).
    var isInteger: Bool

    /// The value as a `Double`; `nil` when it is not finite.
    var double: Double? {
        if let integer = self.integer { return Double(integer) }
        // Rare path (fractions, exponents): short literals are small strings, so no allocation.
        guard let value = Double(String(decoding: self.text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}

/// Receives the decoded bytes of a JSON string.
protocol JSONStringSink {
    mutating func append(_ byte: UInt8)
}

/// Validates only.
struct DiscardingSink: JSONStringSink {
    @inline(__always) mutating func append(_ byte: UInt8) {}
}

/// Collects a string of up to 64 bytes; remembers whether it was longer.
struct InlineNameSink: JSONStringSink {
    var name = InlineName()
    var overflowed = false

    @inline(__always) mutating func append(_ byte: UInt8) {
        if !self.name.append(byte) { self.overflowed = true }
    }
}

/// Hashes a string (FNV-1a, 64-bit) without keeping it: `containerEvent` ids only pair events.
struct HashingSink: JSONStringSink {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) mutating func append(_ byte: UInt8) {
        self.hash = (self.hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
}
