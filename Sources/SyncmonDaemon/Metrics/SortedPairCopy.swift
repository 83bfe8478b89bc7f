import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// One render's copy of the pairs, sorted by key, in memory of its own that is asked for huge
/// pages and unmapped when the render ends.
///
/// The per-pair families read every pair once per family, and a `Dictionary` hands out a pair
/// only as a copy (1.9 KB and its arrays retained), so the pairs are copied once, in key order,
/// and read in place from there. At 10,000 pairs that copy is 19 MB of fresh pages each scrape:
/// with 4 KiB pages 4,700 page faults, about a tenth of the render. Mapped on its own, 2 MiB
/// aligned and with `MADV_HUGEPAGE`, the same copy takes ten faults where the kernel has
/// transparent huge pages (`always` or `madvise`; elsewhere nothing changes). Unmapping it at
/// the end keeps nothing resident between scrapes (RSS per pair, docs/performance.md). Below
/// one huge page the copy comes from the heap as before.
enum SortedPairCopy {
    /// One pair as the dictionary hands it out.
    typealias Element = (key: PairKey, value: PairState)

    /// A huge page on x86-64 and arm64 (4 KiB base pages).
    private static let hugePage = 2 << 20

    /// `MADV_HUGEPAGE` (Linux 2.6.38), spelled out as ``StartupPages`` does `MADV_PAGEOUT`.
    private static let adviseHugePage: Int32 = 14

    /// Calls `body` with `pairs` sorted by key; the copy lives for the call only.
    static func with<Result>(_ pairs: [PairKey: PairState], _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
        // Sort positions by key, then copy each pair once: sorting the pairs themselves moved
        // whole `PairState` values around n log n times (7% of a 1,000-pair render).
        let order = PairOrder.sorted(pairs)
        let bytes = order.count * MemoryLayout<Element>.stride
        let mapping = bytes >= Self.hugePage ? Self.map(bytes) : nil
        let storage: UnsafeMutablePointer<Element>
        if let mapping {
            let aligned = (Int(bitPattern: mapping.start) + Self.hugePage - 1) / Self.hugePage * Self.hugePage
            let start = UnsafeMutableRawPointer(bitPattern: aligned)!
            _ = madvise(start, mapping.length - (aligned - Int(bitPattern: mapping.start)), Self.adviseHugePage)
            storage = start.bindMemory(to: Element.self, capacity: order.count)
        } else {
            storage = UnsafeMutablePointer<Element>.allocate(capacity: max(order.count, 1))
        }
        defer {
            storage.deinitialize(count: order.count)
            if let mapping {
                _ = munmap(mapping.start, mapping.length)
            } else {
                storage.deallocate()
            }
        }
        for (offset, index) in order.enumerated() {
            (storage + offset).initialize(to: pairs[index])
        }
        return body(UnsafeBufferPointer(start: storage, count: order.count))
    }

    /// An anonymous private mapping with a huge page's worth of room to align its start.
    private static func map(_ bytes: Int) -> (start: UnsafeMutableRawPointer, length: Int)? {
        let length = (bytes + Self.hugePage - 1) / Self.hugePage * Self.hugePage + Self.hugePage
        guard let start = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), start != MAP_FAILED else {
            return nil
        }
        return (start, length)
    }
}
