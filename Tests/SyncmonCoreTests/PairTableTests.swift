import SyncmonCore
import Testing

/// The dense pair table against a `Dictionary` doing the same: adds, replacements and removals
/// (the last pair moving into the hole), over enough keys that positions collide and the
/// table grows, and removal's backward shift keeps every key findable.
@Suite("Pair table")
struct PairTableTests {
    static func key(_ number: Int) -> PairKey {
        PairKey(engine: name("engine-\(number)"), database: number.isMultiple(of: 3) ? .shared : .private)
    }

    static func state(_ number: Int) -> PairState {
        PairState(firstEvent: at(Int64(number)))
    }

    /// Each table equals the model: the same pairs, each found at a position that holds its key.
    static func expectSame(_ table: PairTable, _ model: [PairKey: PairState], _ context: String) {
        #expect(table.count == model.count, "\(context)")
        for (key, state) in model {
            let position = table.index(forKey: key)
            #expect(position.map { table.keys[$0] } == key, "\(context): \(key)")
            #expect(table[key]?.lastEvent == state.lastEvent, "\(context): \(key)")
        }
        #expect(Set(table.keys) == Set(model.keys), "\(context)")
        #expect(table.map(\.key) == table.keys)
    }

    static let everyOther: [Int] = stride(from: 2, through: 40, by: 2).map { -$0 }
    static let removeAll: [Int] = (1...20).map { -$0 }
    /// Operations: a positive number adds (or replaces) that key, a negative one removes it.
    static let cases: [(String, [Int])] = [
        ("empty", []),
        ("one added, removed, added again", [1, -1, 1]),
        ("the last removed", [1, 2, 3, -3]),
        ("the first removed: the last takes its place", [1, 2, 3, -1]),
        ("a replacement keeps one pair", [5, 5, 5]),
        ("removing one that is not there", [1, -2]),
        ("grows past 16 positions", Array(1...40)),
        ("grows, then removes every other", Array(1...40) + everyOther),
        ("removes everything, then adds", Array(1...20) + removeAll + [7, 8]),
    ]

    @Test("adds, replacements and removals as a dictionary does them", arguments: cases)
    func operations(_ name: String, _ steps: [Int]) {
        var table = PairTable()
        var model: [PairKey: PairState] = [:]
        for (offset, step) in steps.enumerated() {
            let key = Self.key(abs(step))
            if step > 0 {
                table[key] = Self.state(offset)
                model[key] = Self.state(offset)
            } else {
                table[key] = nil
                model[key] = nil
            }
        }
        Self.expectSame(table, model, name)
    }

    @Test("10,000 random adds and removals over 2,000 keys match the dictionary all along")
    func random() {
        var generator = SeededGenerator(seed: 36)
        var table = PairTable()
        var model: [PairKey: PairState] = [:]
        for round in 0..<10_000 {
            let key = Self.key(Int(generator.next() % 2_000))
            if generator.next() % 3 == 0 {
                table[key] = nil
                model[key] = nil
            } else {
                table[key] = Self.state(round)
                model[key] = Self.state(round)
            }
            if round % 1_000 == 999 { Self.expectSame(table, model, "round \(round)") }
        }
    }

    @Test("merge adds only the pairs it does not have")
    func merge() {
        var mine = PairTable()
        mine[Self.key(1)] = Self.state(1)
        var other = PairTable()
        other[Self.key(1)] = Self.state(100)
        other[Self.key(2)] = Self.state(2)
        mine.merge(other)
        #expect(mine.count == 2)
        #expect(mine[Self.key(1)]?.lastEvent == at(1))
        #expect(mine[Self.key(2)]?.lastEvent == at(2))
    }
}
