import SyncmonCore

/// One render's view of the pairs in key order, read in place from the monitor's table.
///
/// The per-pair families read every pair once per family. A `Dictionary` handed out a pair only
/// as a copy (1.3 KB, its arrays retained), so each render copied all of them once, in key
/// order: 13 MiB of copies at 10,000 pairs. The table keeps its states in one array, and
/// a pair here is two addresses into it: reading `pairs[i].value.x` reads the field where it is.
struct SortedPairs {
    /// One pair, where the table holds it.
    struct Pair {
        fileprivate let keyAddress: UnsafePointer<PairKey>
        fileprivate let valueAddress: UnsafePointer<PairState>

        var key: PairKey { unsafeAddress { self.keyAddress } }
        var value: PairState { unsafeAddress { self.valueAddress } }
        /// Where the state is, for `PairState`'s forms that read it in place (a method called
        /// on `value` copies the state first).
        var state: UnsafePointer<PairState> { self.valueAddress }
    }

    private let keys: UnsafeBufferPointer<PairKey>
    private let values: UnsafeBufferPointer<PairState>
    /// The positions in the table, in key order.
    private let order: [Int]

    var count: Int { self.order.count }
    var indices: Range<Int> { self.order.indices }

    subscript(index: Int) -> Pair {
        let position = self.order[index]
        return Pair(keyAddress: self.keys.baseAddress! + position, valueAddress: self.values.baseAddress! + position)
    }

    /// Calls `body` with `pairs` in key order; the view is good for the call only.
    static func with<Result>(_ pairs: PairTable, _ body: (SortedPairs) -> Result) -> Result {
        let order = PairOrder.sorted(pairs)
        return pairs.keys.withUnsafeBufferPointer { keys in
            pairs.values.withUnsafeBufferPointer { values in
                body(SortedPairs(keys: keys, values: values, order: order))
            }
        }
    }
}
