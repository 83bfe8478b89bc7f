import SyncmonCore

/// Where a pair's memory goes, by the layout of the tables that hold it: the figure that the
/// daemon's anonymous memory per pair is read against (docs/performance.md).
extension Benchmark {
    /// The pair table of `monitor` and its parts, for the record: the keys and states sit in two
    /// dense arrays (their spare capacity never touched), found through a table of 4-byte
    /// positions at most half full; what each pair allocates besides (histogram buckets,
    /// counters, its history) is apart.
    static func printPairMemory(_ monitor: Monitor) {
        let pairs = Double(monitor.pairs.count)
        let keyStride = MemoryLayout<PairKey>.stride
        let stateStride = MemoryLayout<PairState>.stride
        let trackerStride = MemoryLayout<PhaseTracker>.stride
        // The position table: the power of two at least twice the pairs.
        var slots = 16.0
        while slots < pairs * 2 { slots *= 2 }
        let perPair = Double(keyStride + stateStride) + slots * 4 / max(pairs, 1)
        let parts = "\(keyStride) B key + \(stateStride) B state (3 × \(trackerStride) B phases) + \(Self.fixed(slots * 4 / max(pairs, 1), 1)) B of positions"
        print(Self.row("pair table, \(Self.grouped(pairs)) pairs", "\(Self.fixed(perPair / 1024, 2)) KiB a pair: \(parts)", "(for the record)", nil))
    }
}
