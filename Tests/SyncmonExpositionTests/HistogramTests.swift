import Foundation
import SyncmonExposition
import Testing

/// Properties every written histogram must have, whatever the counts.
@Suite("Histogram invariants")
struct HistogramTests {
    static let family = MetricFamily.histogram(
        "syncmon_phase_duration_seconds",
        help: "Durations.",
        buckets: [0.005, 0.01, 0.1, 0.5, 1, 5, 10, 60, 300, 3600]
    )

    /// One parsed sample line: name, the `le` label if any, value.
    struct Line {
        let name: String
        let le: String?
        let value: Double
    }

    static func parse(_ output: String) -> [Line] {
        output.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let space = line.lastIndex(of: " ")!
            let series = line[..<space]
            let name = String(series.prefix { $0 != "{" && $0 != " " })
            var le: String? = nil
            if let range = series.range(of: "le=\"") {
                le = String(series[range.upperBound...].prefix { $0 != "\"" })
            }
            return Line(name: name, le: le, value: Double(line[line.index(after: space)...])!)
        }
    }

    @Test(
        "buckets are cumulative, increasing in le, end with +Inf equal to _count, then _sum, _count",
        arguments: 0..<20
    )
    func invariants(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let counts = (0..<11).map { _ in generator.next() % 50 }
        let sum = Double(generator.next() % 100_000) / 8
        for format in ExpositionFormat.allCases {
            let output = render(format) { writer in
                writer.family(Self.family)
                writer.histogram(Self.family, labels: LabelSet("engine", "e\(seed)"), bucketCounts: counts, sum: sum)
            }
            let lines = Self.parse(output)
            #expect(lines.count == 13)
            let buckets = lines.prefix(11)
            #expect(buckets.allSatisfy { $0.name == "syncmon_phase_duration_seconds_bucket" })
            let bounds = buckets.map { Double($0.le!.replacingOccurrences(of: "+Inf", with: "inf"))! }
            #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "le increasing")
            #expect(buckets.last?.le == "+Inf")
            let values = buckets.map(\.value)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "cumulative")
            #expect(values.last == Double(counts.reduce(0, +)))
            #expect(lines[11].name == "syncmon_phase_duration_seconds_sum" && lines[11].value == sum)
            #expect(lines[12].name == "syncmon_phase_duration_seconds_count" && lines[12].value == values.last)
            #expect(lines.allSatisfy { $0.name == "syncmon_phase_duration_seconds_bucket" || $0.le == nil })
        }
    }

    @Test("a histogram with wrong number of bucket counts is a programming error")
    func wrongCountTraps() async {
        await #expect(processExitsWith: .failure) {
            var writer = ExpositionWriter(format: .prometheusText)
            writer.family(HistogramTests.family)
            writer.histogram(HistogramTests.family, bucketCounts: [1, 2], sum: 1)
        }
    }
}
