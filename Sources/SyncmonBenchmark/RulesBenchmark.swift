import SyncmonCore
import SyncmonRules

extension Benchmark {
    /// A journal line through a shipped pack's rules, events rendered (docs/performance.md: ≤ 20 µs a
    /// line): the unison pack on a cycle's lines, matched or not, best of three passes.
    static func rules(lines count: Int) throws {
        guard let pack = try ShippedPacks.pack(named: "unison") else { throw BenchmarkError("no unison pack") }
        let sample = [
            "Looking for changes", "Reconciling changes", "file     ---->            f2  ",
            "100%  00:00 ETA\r               \r[END] Copying f2", "Saving synchronizer state",
            "Synchronization complete at 14:46:54  (2 items transferred, 0 skipped, 0 failed)",
            "Sleeping for 2 seconds...", "Nothing to do: replicas have not changed since last sync.",
        ]
        let lines = sample.map { JournalLine(message: $0, time: Timestamp(seconds: 1_795_000_000)) }
        var best = Double.infinity
        var events = 0
        for _ in 0..<3 {
            events = 0
            let started = Self.monotonicSeconds()
            for index in 0..<count {
                if let match = pack.evaluate(lines[index % lines.count]).match {
                    events += match.events(engine: "bench", database: "default").count
                }
            }
            best = min(best, Self.monotonicSeconds() - started)
        }
        let microseconds = best / Double(count) * 1_000_000
        print(Self.row("journal line through the unison pack", "\(Self.fixed(microseconds, 2)) µs (\(events) events)", "≤ 20 µs", microseconds <= 20))
    }
}
