/// Up to 16 bytes to match at the read position (``JSONScanner/consume(_:)``), as two
/// little-endian words and the masks of the bytes in use.
struct KeyPattern: Equatable {
    let words: (UInt64, UInt64)
    let masks: (UInt64, UInt64)
    let length: Int

    /// The pattern of `length` bytes whose words are `first` and `second`; debug builds check
    /// them against `spelling`.
    @inline(__always)
    init(_ first: UInt64, _ second: UInt64, length: Int, spelling: StaticString) {
        self.words = (first, second)
        self.masks = (Self.mask(bytes: length), Self.mask(bytes: length - 8))
        self.length = length
        assert(self == KeyPattern(spelling), "\(spelling): words do not match the spelling")
    }

    /// A pattern no bytes match.
    static let never = KeyPattern(words: (1, 1), masks: (0, 0), length: 0)

    private init(words: (UInt64, UInt64), masks: (UInt64, UInt64), length: Int) {
        self.words = words
        self.masks = masks
        self.length = length
    }

    /// The bytes of `literal` (at most 16), a byte at a time: what debug builds check the
    /// written-out words against.
    init(_ literal: StaticString) {
        precondition(literal.utf8CodeUnitCount <= 16)
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<literal.utf8CodeUnitCount {
            let byte = UInt64(literal.utf8Start[index]) << UInt64(8 * (index % 8))
            if index < 8 { words.0 |= byte } else { words.1 |= byte }
        }
        self.words = words
        self.masks = (Self.mask(bytes: literal.utf8CodeUnitCount), Self.mask(bytes: literal.utf8CodeUnitCount - 8))
        self.length = literal.utf8CodeUnitCount
    }

    /// A word's mask of its first `bytes` bytes (none below 1, all from 8).
    @inline(__always)
    static func mask(bytes: Int) -> UInt64 {
        bytes <= 0 ? 0 : bytes >= 8 ? .max : (1 << UInt64(8 * bytes)) - 1
    }

    static func == (lhs: KeyPattern, rhs: KeyPattern) -> Bool {
        lhs.words == rhs.words && lhs.masks == rhs.masks && lhs.length == rhs.length
    }
}
