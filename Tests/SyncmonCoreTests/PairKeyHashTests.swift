import SyncmonCore
import Testing

/// `PairKey`'s table hash (`_rawHashValue(seed:)`), which replaced SipHash for the pair lookup
/// every event makes: equal pairs hash alike, the seed changes the placement, and names that
/// differ in one byte, in length only, or in database spread over a table's buckets.
@Suite("Pair key hash")
struct PairKeyHashTests {
    static func key(_ engine: String, _ database: Database = .private) -> PairKey {
        PairKey(engine: InlineName(engine)!, database: database)
    }

    @Test(
        "equal pairs hash alike, whatever the bytes past the name were",
        arguments: ["a", "engine-000", "engine-0001", "sixteen-bytes-xx", "x" + String(repeating: "y", count: 63)])
    func equalPairsHashAlike(engine: String) {
        // Built two ways: from a string, and by truncating a longer name's bytes.
        var longer = Array((engine + "-tail").utf8)
        longer.removeLast(5)
        let fromBytes = longer.withUnsafeBytes { PairKey(engine: InlineName(bytes: $0)!, database: .shared) }
        let fromString = Self.key(engine, .shared)
        #expect(fromBytes == fromString)
        for seed in [0, 1, -1, 0x5EED_5EED] {
            #expect(fromBytes._rawHashValue(seed: seed) == fromString._rawHashValue(seed: seed))
        }
    }

    @Test(
        "pairs that differ a little hash apart",
        arguments: [
            ("engine-000", Database.private, "engine-001", Database.private),
            ("engine-000", .private, "engine-000", .shared),
            ("engine", .private, "engine0", .private),
            ("abcdefgh", .private, "abcdefgh.", .private),
            ("ab", .shared, "ba", .shared),
        ])
    func nearPairsHashApart(first: String, firstDatabase: Database, second: String, secondDatabase: Database) {
        let one = Self.key(first, firstDatabase)
        let other = Self.key(second, secondDatabase)
        #expect(one != other)
        #expect(one._rawHashValue(seed: 7) != other._rawHashValue(seed: 7))
    }

    @Test("the seed moves every pair")
    func seedMovesPairs() {
        let keys = (0..<100).map { Self.key("engine-\($0)") }
        let moved = keys.filter { $0._rawHashValue(seed: 1) != $0._rawHashValue(seed: 2) }
        #expect(moved.count == keys.count)
    }

    /// 10,000 pairs of sequential names (the worst case for a weak hash) in 16,384 buckets, as a
    /// dictionary of that size indexes them by the low bits: a random placement leaves about
    /// 16,384 × e^(-10,000/16,384) ≈ 8,900 buckets empty, so far more means clustering.
    @Test("sequential names spread over the low bits", arguments: [0, 42])
    func sequentialNamesSpread(seed: Int) {
        var used = Set<Int>()
        for index in 0..<5_000 {
            for database in [Database.private, .shared] {
                used.insert(Self.key("engine-\(index)", database)._rawHashValue(seed: seed) & 0x3FFF)
            }
        }
        let empty = 16_384 - used.count
        #expect(empty < 9_300, "\(empty) of 16,384 buckets empty")
    }

    @Test("a dictionary of 10,000 pairs finds each one")
    func dictionaryFindsEachPair() {
        var table: [PairKey: Int] = [:]
        for index in 0..<10_000 { table[Self.key("e\(index)", index % 3 == 0 ? .shared : .private)] = index }
        #expect(table.count == 10_000)
        for index in 0..<10_000 { #expect(table[Self.key("e\(index)", index % 3 == 0 ? .shared : .private)] == index) }
        #expect(table[Self.key("e1", .shared)] == nil)
    }
}
