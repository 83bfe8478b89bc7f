import SyncmonCore

/// One render's copy of the pairs, sorted by key, freed when the render ends.
///
/// The per-pair families read every pair once per family, and a `Dictionary` hands out a pair
/// only as a copy (1.9 KB and its arrays retained), so the pairs are copied once, in key order,
/// and read in place from there. Freeing it at the end keeps nothing resident between scrapes
/// (RSS per pair, docs/performance.md).
enum SortedPairCopy {
    /// One pair as the dictionary hands it out.
    typealias Element = (key: PairKey, value: PairState)

    /// Calls `body` with `pairs` sorted by key; the copy lives for the call only.
    static func with<Result>(_ pairs: [PairKey: PairState], _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
        // Sort positions by key, then copy each pair once: sorting the pairs themselves moved
        // whole `PairState` values around n log n times (7% of a 1,000-pair render).
        let order = PairOrder.sorted(pairs)
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(order.count, 1))
        defer {
            storage.deinitialize(count: order.count)
            storage.deallocate()
        }
        for (offset, index) in order.enumerated() {
            (storage + offset).initialize(to: pairs[index])
        }
        return body(UnsafeBufferPointer(start: storage, count: order.count))
    }
}
