import SyncmonExposition
import SyncmonTestSupport
import Testing

/// `SeriesLines` and `SeriesLabels`: the per-series fast path writes the bytes the `LabelSet`
/// path writes for the same series.
@Suite("Series lines")
struct SeriesLinesTests {
    static let states = MetricFamily.stateSet("test_state", help: "A state.", label: "state", states: ["idle", "running", "failed"])
    static let flags = MetricFamily.stateSet("test_flag", help: "Flags.", label: "reason", states: ["a", "b", "c", "d"])
    static let counter = MetricFamily.counter("test_runs_total", help: "Runs.")
    static let gauge = MetricFamily.gauge("test_last_timestamp_seconds", help: "A time.")
    static let histogram = MetricFamily.histogram("test_duration_seconds", help: "Durations.", buckets: [0.5, 1, 5])
    static let phases = ["setup", "import", "export"].map { LabelSet("phase", $0) }

    /// Three series' labels, one of them needing escapes.
    static let series: [(engine: String, database: String)] = [("notes", "private"), ("we\"ird\\na\nme", "shared"), ("x", "public")]

    /// Writes the same samples through both paths, each into its own exposition.
    static func bothWays(
        _ family: MetricFamily,
        slow: (inout ExpositionWriter, LabelSet) -> Void,
        fast: (inout ExpositionWriter, SeriesLabel) -> Void
    ) -> (slow: String, fast: String) {
        let slow = render(.prometheusText) { writer in
            writer.family(family)
            for pair in Self.series { slow(&writer, LabelSet(["engine": pair.engine, "database": pair.database])) }
        }
        var labels = SeriesLabels(reservingSeries: Self.series.count)
        for pair in Self.series {
            Array(pair.engine.utf8).withUnsafeBytes { labels.label("engine", $0) }
            Array(pair.database.utf8).withUnsafeBytes { labels.label("database", $0) }
            labels.endSeries()
        }
        let fast = render(.prometheusText) { writer in
            writer.family(family)
            labels.withSeries { series in
                for one in series { fast(&writer, one) }
            }
        }
        return (slow, fast)
    }

    @Test("state sets, with and without a group of extra labels")
    func stateSets() {
        let plain = SeriesLines(Self.states)
        var result = Self.bothWays(Self.states) {
            $0.stateSet(Self.states, labels: $1, active: 1)
        } fast: {
            $0.stateSet(plain, labels: $1, active: 1)
        }
        #expect(result.fast == result.slow)
        let grouped = SeriesLines(Self.states, extras: Self.phases)
        result = Self.bothWays(Self.states) { writer, labels in
            for phase in 0..<3 { writer.stateSet(Self.states, labels: labels, extra: Self.phases[phase], active: phase) }
        } fast: { writer, labels in
            for phase in 0..<3 { writer.stateSet(grouped, labels: labels, group: phase, active: phase) }
        }
        #expect(result.fast == result.slow)
        let flags = SeriesLines(Self.flags)
        result = Self.bothWays(Self.flags) {
            $0.stateSet(Self.flags, labels: $1, activeMask: 0b1010)
        } fast: {
            $0.stateSet(flags, labels: $1, activeMask: 0b1010)
        }
        #expect(result.fast == result.slow)
    }

    @Test("samples: unsigned, signed, with extra labels from the table or of their own")
    func samples() {
        let lines = SeriesLines(Self.counter, extras: Self.phases)
        let bare = SeriesLines(Self.counter)
        let extra = LabelSet(["class": "transient", "code": "a\"b"])
        let result = Self.bothWays(Self.counter) { writer, labels in
            writer.sample(Self.counter, labels: labels, extra: Self.phases[2], value: UInt64(18_446_744_073_709_551_615))
            writer.sample(Self.counter, labels: labels, extra: Self.phases[0], value: 7)
            writer.sample(Self.counter, labels: labels, value: UInt64(0))
            writer.sample(Self.counter, labels: labels, extra: extra, value: UInt64(12))
            writer.sample(Self.counter, labels: labels, extra: extra, value: 2.5)
        } fast: { writer, labels in
            writer.sample(lines, labels: labels, tail: 2, value: UInt64(18_446_744_073_709_551_615))
            writer.sample(lines, labels: labels, tail: 0, value: 7)
            writer.sample(bare, labels: labels, value: UInt64(0))
            writer.sample(bare, labels: labels, extra: extra, value: UInt64(12))
            writer.sample(bare, labels: labels, extra: extra, value: 2.5)
        }
        #expect(result.fast == result.slow)
    }

    /// Whole seconds, every fraction length, leading zeros in the fraction, before 1970, under
    /// a second, past 2^33 s, and a spread of times as events carry them.
    static let times: [Int64] = {
        var times: [Int64] = [
            0, 1_000_000, -1_000_000, 1, 999_999, 1_000_001, -1_500_000, 1_795_000_000_000_000, 1_795_000_000_000_001,
            1_795_000_000_100_000, 1_795_000_000_120_000, 1_795_000_000_000_120, 1_795_000_000_999_999,
            (1 << 33) * 1_000_000 - 1, (1 << 33) * 1_000_000 + 1, (1 << 40) * 1_000_000 + 123_457, .max, .min + 1,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            times.append(Int64(state >> 14))
            times.append(1_795_000_000_000_000 + Int64(state >> 44))
        }
        return times
    }()

    @Test("times in microseconds are spelled as their seconds as a Double")
    func microseconds() async throws {
        // The 40,000 times take many seconds of CPU in a debug build: on a thread of their own,
        // not on one of the cooperative pool's two, where every other test's tasks would wait
        // for them (the client's connection task among them).
        let mismatches = try await ThreadExecutor.run { () -> [Mismatch] in
            let lines = SeriesLines(Self.gauge)
            var mismatches: [Mismatch] = []
            for start in stride(from: 0, to: Self.times.count, by: 1_000) {
                let times = Self.times[start..<min(start + 1_000, Self.times.count)]
                let result = Self.bothWays(Self.gauge) { writer, labels in
                    for time in times { writer.sample(Self.gauge, labels: labels, value: Double(time) / 1_000_000) }
                } fast: { writer, labels in
                    for time in times { writer.sample(lines, labels: labels, microseconds: time) }
                }
                if result.fast != result.slow { mismatches.append(Mismatch(start: start, slow: result.slow, fast: result.fast)) }
            }
            return mismatches
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(1))")
    }

    /// A thousand times whose two renderings differ, from `start` in ``times``.
    struct Mismatch: Sendable {
        var start: Int
        var slow: String
        var fast: String
    }

    @Test("histograms: cumulative buckets, sum and count, per group")
    func histograms() {
        let lines = HistogramLines(Self.histogram, extras: Self.phases)
        let counts: [UInt64] = [3, 0, 2, 1]
        let result = Self.bothWays(Self.histogram) { writer, labels in
            for phase in 0..<3 { writer.histogram(Self.histogram, labels: labels, extra: Self.phases[phase], bucketCounts: counts, sum: 12.75) }
        } fast: { writer, labels in
            for phase in 0..<3 {
                counts.withUnsafeBufferPointer { writer.histogram(lines, labels: labels, group: phase, bucketCounts: $0, sum: 12.75) }
            }
        }
        #expect(result.fast == result.slow)
    }

    /// Series whose labels are 1 to 48 bytes of engine name: every length a 16-byte block copy
    /// can end at, and lines that fill a small piece to a different byte each time.
    static let lengths: [(engine: String, database: String)] = (1...48).map { (String(repeating: "e", count: $0), "private") }

    @Test(
        "block copies write exactly the lines, whatever the labels' length, streamed or not",
        arguments: [nil, 256, 4_096] as [Int?])
    func blockCopies(pieceSize: Int?) {
        let states = SeriesLines(Self.states, extras: Self.phases)
        let histogram = HistogramLines(Self.histogram)
        let counter = SeriesLines(Self.counter)
        let counts: [UInt64] = [1, 2, 0, 4]
        func writeAll(_ writer: inout ExpositionWriter, fast: Bool) {
            var labels = SeriesLabels(reservingSeries: Self.lengths.count)
            for pair in Self.lengths {
                Array(pair.engine.utf8).withUnsafeBytes { labels.label("engine", $0) }
                Array(pair.database.utf8).withUnsafeBytes { labels.label("database", $0) }
                labels.endSeries()
            }
            labels.withSeries { series in
                writer.family(Self.states)
                for (index, pair) in Self.lengths.enumerated() {
                    for phase in 0..<3 {
                        if fast {
                            writer.stateSet(states, labels: series[index], group: phase, active: index % 3)
                        } else {
                            let labels = LabelSet(["engine": pair.engine, "database": pair.database])
                            writer.stateSet(Self.states, labels: labels, extra: Self.phases[phase], active: index % 3)
                        }
                    }
                }
                writer.family(Self.histogram)
                for (index, pair) in Self.lengths.enumerated() {
                    if fast {
                        counts.withUnsafeBufferPointer { writer.histogram(histogram, labels: series[index], bucketCounts: $0, sum: 7.5) }
                    } else {
                        writer.histogram(Self.histogram, labels: LabelSet(["engine": pair.engine, "database": pair.database]), bucketCounts: counts, sum: 7.5)
                    }
                }
                writer.family(Self.counter)
                for (index, pair) in Self.lengths.enumerated() {
                    if fast {
                        writer.sample(counter, labels: series[index], value: UInt64(index))
                    } else {
                        writer.sample(Self.counter, labels: LabelSet(["engine": pair.engine, "database": pair.database]), value: UInt64(index))
                    }
                }
            }
        }
        func exposition(fast: Bool) -> String {
            guard let pieceSize else {
                return render(.prometheusText) { writeAll(&$0, fast: fast) }
            }
            var streamed: [UInt8] = []
            var writer = ExpositionWriter(format: .prometheusText, pieceSize: pieceSize) { streamed += $0 }
            writeAll(&writer, fast: fast)
            _ = writer.finish()
            return String(decoding: streamed, as: UTF8.self)
        }
        let slow = exposition(fast: false)
        #expect(exposition(fast: true) == slow)
        #expect(slow.contains(#"engine="\#(String(repeating: "e", count: 48))""#))
    }
}
