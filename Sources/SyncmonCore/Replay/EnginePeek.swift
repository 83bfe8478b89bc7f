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
    /// The bytes of the engine's name, or `nil` when no `"engine": "` is found or the name
    /// needs more than a plain read (escapes: the decoder decides, and the replay falls back).
    @inline(__always)
    static func name(in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = line.baseAddress else { return nil }
        var scanner = JSONScanner(line)
        // `"engine"` right after `{"v":1,` (bytes 7-14), then `:"`.
        if line.count > 17, line.loadUnaligned(fromByteOffset: 7, as: UInt64.self) == Self.quotedKey,
            line[15] == UInt8(ascii: ":"), line[16] == UInt8(ascii: "\"")
        {
            scanner.position = 16
            return Self.string(at: scanner)
        }
        var from = 0
        while from + 8 <= line.count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), line.count - from - 7) {
            let keyStart = base.distance(to: UnsafeRawPointer(found))
            from = keyStart + 1
            guard line.loadUnaligned(fromByteOffset: keyStart, as: UInt64.self) == Self.quotedKey else { continue }
            scanner.position = keyStart + 8
            guard scanner.consume(UInt8(ascii: ":")) else { continue }
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { continue }
            return Self.string(at: scanner)
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
            // The last bytes: the word that ends with them, shifted down, when the name has one.
            let kept = name.count - offset
            var tail: UInt64 = 0
            if name.count >= 8 {
                tail = name.loadUnaligned(fromByteOffset: name.count - 8, as: UInt64.self) >> UInt64(8 * (8 - kept))
            } else {
                for index in offset..<name.count { tail |= UInt64(name[index]) << (8 * (index - offset)) }
            }
            hash = (hash ^ tail) &* multiplier
        }
        // The high half, scaled to 0..<count by a multiply: a `div` here was a tenth of the loop.
        return Int(((hash >> 32) &* UInt64(count)) >> 32)
    }

    /// `"engine"` as one little-endian word.
    private static let quotedKey: UInt64 = 0x2265_6E69_676E_6522

    /// The content of the plain string that opens at the scanner's position (the decoder's own
    /// eight-bytes-at-a-time scan), or `nil` when it needs the careful path.
    @inline(__always)
    private static func string(at scanner: JSONScanner) -> UnsafeRawBufferPointer? {
        guard let end = scanner.plainEnd() else { return nil }
        return UnsafeRawBufferPointer(rebasing: scanner.bytes[(scanner.position + 1)..<end])
    }
}
