#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A short UTF-8 string of at most 64 bytes stored inline, without a heap allocation.
///
/// Engine names (docs/protocol.md#envelope: 1–64 characters) and unrecognised error codes are decoded for every
/// event; a Swift `String` over 15 bytes would allocate each time, so the decoder writes the
/// bytes straight into this value and the state store hashes and compares it in place.
public struct InlineName: Hashable, Sendable, CustomStringConvertible {
    /// The capacity in bytes.
    public static let capacity = 64

    /// Eight words of storage; bytes past `count` are always zero so that `==` and `hash` can
    /// work on whole words.
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// The number of bytes in use.
    public private(set) var count: UInt8 = 0

    public init() {}

    /// A name from a string; `nil` when it does not fit.
    public init?(_ string: String) {
        guard string.utf8.count <= Self.capacity else { return nil }
        for byte in string.utf8 { _ = self.append(byte) }
    }

    /// A name holding `bytes`; `nil` when they do not fit.
    @inline(__always)
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.capacity else { return nil }
        if let base = bytes.baseAddress {
            withUnsafeMutableBytes(of: &self.storage) { _ = memcpy($0.baseAddress!, base, bytes.count) }
        }
        self.count = UInt8(bytes.count)
    }

    /// Whether `bytes` equal an ASCII literal.
    @inline(__always)
    public static func bytes(_ bytes: UnsafeRawBufferPointer, equal literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && (bytes.count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
    }

    /// Appends one byte; `false` (and no change) when the name is full.
    @inline(__always)
    public mutating func append(_ byte: UInt8) -> Bool {
        guard Int(self.count) < Self.capacity else { return false }
        let index = Int(self.count)
        withUnsafeMutableBytes(of: &self.storage) { $0[index] = byte }
        self.count += 1
        return true
    }

    /// Whether the name equals an ASCII literal.
    public func equals(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == Int(self.count) else { return false }
        return withUnsafeBytes(of: self.storage) { memcmp($0.baseAddress!, literal.utf8Start, Int(self.count)) == 0 }
    }

    /// Whether the name's bytes are `bytes`.
    @inline(__always)
    public func holds(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == Int(self.count) else { return false }
        // A word at a time: `memcmp` of a variable count is a call into libc on every line.
        return withUnsafeBytes(of: self.storage) { storage in
            var offset = 0
            while offset + 8 <= bytes.count {
                guard storage.load(fromByteOffset: offset, as: UInt64.self) == bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                    return false
                }
                offset += 8
            }
            while offset < bytes.count {
                guard storage[offset] == bytes[offset] else { return false }
                offset += 1
            }
            return true
        }
    }

    /// Calls `body` with the bytes in use.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: self.storage) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<Int(self.count)])) }
    }

    public var isEmpty: Bool { self.count == 0 }

    public var description: String {
        self.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    public static func == (lhs: InlineName, rhs: InlineName) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.storage.0 == rhs.storage.0 && lhs.storage.1 == rhs.storage.1 && lhs.storage.2 == rhs.storage.2
            && lhs.storage.3 == rhs.storage.3 && lhs.storage.4 == rhs.storage.4 && lhs.storage.5 == rhs.storage.5
            && lhs.storage.6 == rhs.storage.6 && lhs.storage.7 == rhs.storage.7
    }

    public func hash(into hasher: inout Hasher) {
        self.combineWords(into: &hasher)
        hasher.combine(self.count)
    }

    /// Feeds the words that hold bytes to `hasher`, not the count: most names fit in the first
    /// two or three words. `PairKey` feeds both names' counts as one word.
    @inline(__always)
    func combineWords(into hasher: inout Hasher) {
        let words = (Int(self.count) + 7) / 8
        withUnsafeBytes(of: self.storage) { raw in
            for word in 0..<words { hasher.combine(raw.load(fromByteOffset: word * 8, as: UInt64.self)) }
        }
    }

    /// Folds the words that hold bytes into `hash`, one multiply each (``PairKey``'s table hash).
    @inline(__always)
    func foldWords(into hash: inout UInt64) {
        let words = (Int(self.count) + 7) / 8
        withUnsafeBytes(of: self.storage) { raw in
            for word in 0..<words { hash = Self.fold(hash ^ raw.load(fromByteOffset: word * 8, as: UInt64.self), 0xA076_1D64_78BD_642F) }
        }
    }

    /// wyhash's mix: the full 128-bit product of `a` and `b`, its halves xored, so that every
    /// bit of the input moves bits all over the result.
    @inline(__always)
    static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}

extension InlineName: Codable {
    /// Persisted as a string.
    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        guard let name = InlineName(string) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "longer than 64 bytes"))
        }
        self = name
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.description)
    }
}

extension InlineName: Comparable {
    /// Byte order, the order status rows are listed in.
    public static func < (lhs: InlineName, rhs: InlineName) -> Bool {
        lhs.withBytes { left in rhs.withBytes { right in left.lexicographicallyPrecedes(right) } }
    }
}
