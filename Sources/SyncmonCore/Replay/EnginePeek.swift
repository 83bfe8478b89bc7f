#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine a line names, found without decoding the line: how a parallel replay gives each
/// line to one worker (``ReplayShard``).
///
/// A guess that the decoder checks: the string after the first `"engine"` that is followed by
/// `:` and a string. Writers put the key first (`syncmon emit` and the client library write
/// `{"v":1,"engine":"`), where one word compare finds it; elsewhere a search for it does. A nested
/// object or a repeated key can name another engine than the decoder reads (the last
/// top-level `engine` wins), and the replay notices when the line is decoded.
enum EnginePeek {
    /// The bytes of the engine's name, or `nil` when no `"engine": "` is found.
    @inline(__always)
    static func name(in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = line.baseAddress else { return nil }
        // `"engine"` right after `{"v":1,` (bytes 7-14), then `:"`.
        if line.count > 17, line.loadUnaligned(fromByteOffset: 7, as: UInt64.self) == Self.quotedKey,
            line[15] == UInt8(ascii: ":"), line[16] == UInt8(ascii: "\"")
        {
            return Self.string(in: line, from: 17)
        }
        var from = 0
        while from + 8 <= line.count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), line.count - from - 7) {
            let keyStart = base.distance(to: UnsafeRawPointer(found))
            from = keyStart + 1
            guard line.loadUnaligned(fromByteOffset: keyStart, as: UInt64.self) == Self.quotedKey else { continue }
            var index = Self.afterWhitespace(line, from: keyStart + 8)
            guard index < line.count, line[index] == UInt8(ascii: ":") else { continue }
            index = Self.afterWhitespace(line, from: index + 1)
            guard index < line.count, line[index] == UInt8(ascii: "\"") else { continue }
            return Self.string(in: line, from: index + 1)
        }
        return nil
    }

    /// The shard of `name` among `count`: a multiply per word, the high half taken (a
    /// multiply's low bits mix little). A few nanoseconds, where `hashValue` (SipHash, seeded)
    /// cost 3% of a replay; every worker computes it for every line.
    @inline(__always)
    static func shard(of name: UnsafeRawBufferPointer, count: Int) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(truncatingIfNeeded: name.count) &* multiplier
        var offset = 0
        while offset + 8 <= name.count {
            hash = (hash ^ name.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            offset += 8
        }
        if offset < name.count {
            var tail: UInt64 = 0
            for index in offset..<name.count { tail |= UInt64(name[index]) << (8 * (index - offset)) }
            hash = (hash ^ tail) &* multiplier
        }
        // The high half, scaled to 0..<count by a multiply: a `div` here was a tenth of the loop.
        return Int(((hash >> 32) &* UInt64(count)) >> 32)
    }

    /// `"engine"` as one little-endian word.
    private static let quotedKey: UInt64 = 0x2265_6E69_676E_6522

    /// The bytes from `start` to the next `"`, or `nil` when none follows. A loop, not
    /// `memchr`: a name is a few bytes, and the call cost more than the search (5% of a replay).
    @inline(__always)
    private static func string(in line: UnsafeRawBufferPointer, from start: Int) -> UnsafeRawBufferPointer? {
        var end = start
        while end < line.count {
            if line[end] == UInt8(ascii: "\"") { return UnsafeRawBufferPointer(rebasing: line[start..<end]) }
            end += 1
        }
        return nil
    }

    /// The first offset from `start` that is not JSON whitespace.
    private static func afterWhitespace(_ line: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < line.count, line[index] == 0x20 || line[index] == 0x09 || line[index] == 0x0A || line[index] == 0x0D { index += 1 }
        return index
    }
}
