import SyncmonCore

/// The positions of a monitor's pairs in key order (engine, then database), as `/metrics` lists
/// them, sorted through a compact key.
///
/// Comparing `PairKey`s reads both 64-byte names through closures, and each comparison fetched
/// the two keys from the dictionary first (6% of a 10,000-pair render). Here each pair's first
/// 16 engine bytes are read once into two big-endian words, so most comparisons are two integer
/// compares; only pairs whose engines agree on those bytes (the databases of one engine) are
/// compared as keys.
enum PairOrder {
    /// One pair to sort: its engine's first 16 bytes (zero-padded) and its place in `keys`.
    private struct Entry {
        var high: UInt64
        var low: UInt64
        var position: Int
    }

    /// The positions of `pairs`, sorted by key.
    static func sorted(_ pairs: PairTable) -> [Int] {
        let keys = pairs.keys
        var entries: [Entry] = []
        entries.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            let (high, low) = key.engine.withBytes(Self.prefix)
            entries.append(Entry(high: high, low: low, position: position))
        }
        // Zero padding sorts a name before its longer extensions, as byte order does; names
        // that agree on 16 bytes are compared whole.
        entries.sort { left, right in
            if left.high != right.high { return left.high < right.high }
            if left.low != right.low { return left.low < right.low }
            return keys[left.position] < keys[right.position]
        }
        return entries.map(\.position)
    }

    /// The first 16 bytes of `bytes`, zero-padded, as two big-endian words.
    private static func prefix(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(16)))
        }
        return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
    }
}
