import SyncmonCore

/// Where a pair's memory goes, by the layout of the tables that hold it: the figure that the
/// daemon's anonymous memory per pair is read against (docs/performance.md).
extension Benchmark {
    /// The pair table of `monitor` and its parts, for the record: a dictionary keeps its keys
    /// and values inline in two arrays of `capacity` slots (a power of two, at most three
    /// quarters full), so a pair costs the slots' stride over the load, touched or not by the
    /// hash's spread; what each pair allocates besides (histogram buckets, counters) is apart.
    static func printPairMemory(_ monitor: Monitor) {
        let pairs = Double(monitor.pairs.count)
        // `capacity` is what fits before the table grows: three quarters of its slots.
        let slots = Double(monitor.pairs.capacity) * 4 / 3
        let keyStride = MemoryLayout<PairKey>.stride
        let stateStride = MemoryLayout<PairState>.stride
        let trackerStride = MemoryLayout<PhaseTracker>.stride
        let table = slots * Double(keyStride + stateStride)
        let perPair = table / max(pairs, 1)
        let parts = "\(keyStride) B key + \(stateStride) B state (3 × \(trackerStride) B phases) × \(Self.grouped(slots)) slots"
        print(Self.row("pair table, \(Self.grouped(pairs)) pairs", "\(Self.fixed(perPair / 1024, 2)) KiB a pair: \(parts)", "(for the record)", nil))
    }
}
