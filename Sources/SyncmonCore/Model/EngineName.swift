/// Engine identifiers as protocol version 1 allows them (docs/protocol.md#envelope): 1–64 characters of
/// `[A-Za-z0-9._-]`. The one rule the decoder, the daemon's configuration and query checks,
/// the command line and the client library all use.
public enum EngineName {
    /// Whether `bytes` form a valid engine identifier.
    @inline(__always)
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        (1...InlineName.capacity).contains(bytes.count) && bytes.allSatisfy(Self.isAllowed)
    }

    /// Whether `bytes` form a valid engine identifier, read eight bytes at a time (every
    /// decoded line's engine comes through here), the last few by ``isAllowed(_:)``.
    @inline(__always)
    public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard (1...InlineName.capacity).contains(bytes.count) else { return false }
        var index = 0
        while index + 8 <= bytes.count {
            guard Self.allAllowed(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) else { return false }
            index += 8
        }
        while index < bytes.count {
            guard Self.isAllowed(bytes[index]) else { return false }
            index += 1
        }
        return true
    }

    /// Whether all eight bytes of `word` are allowed, as ``isAllowed(_:)`` says of each.
    ///
    /// Once no byte has its high bit set, adding a constant to every byte of the word cannot
    /// carry from one byte into the next, so each byte's high bit after `byte + (0x80 - low)`
    /// says whether it is at least `low`, and after `byte + (0x7F - high)` whether it is above
    /// `high`. Letters are folded to lower case by setting bit 5 (which maps nothing else into
    /// `a`–`z`).
    @inline(__always)
    package static func allAllowed(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard word & highs == 0 else { return false }
        func within(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
            (word &+ ones &* UInt64(0x80 - low)) & ~(word &+ ones &* UInt64(0x7F - high)) & highs
        }
        let digits = within(word, UInt8(ascii: "0"), UInt8(ascii: "9"))
        let letters = within(word | ones &* 0x20, UInt8(ascii: "a"), UInt8(ascii: "z"))
        let dashAndDot = within(word, UInt8(ascii: "-"), UInt8(ascii: "."))
        let underscore = within(word, UInt8(ascii: "_"), UInt8(ascii: "_"))
        return digits | letters | dashAndDot | underscore == highs
    }

    /// The name, or `nil` when `string` is not a valid engine identifier.
    public static func parse(_ string: String) -> InlineName? {
        guard Self.isValid(string.utf8) else { return nil }
        return InlineName(string)
    }

    /// Whether `byte` may appear in an engine identifier.
    @inline(__always)
    public static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
