import SyncmonExposition
import Testing

/// The sample exposition the render figures are measured on. The figures themselves come from
/// `scripts/benchmark.sh` (release build, docs/performance.md), not from a timed test: a bound
/// loose enough for a debug build on a busy machine would assert nothing.
@Suite("Render sample")
struct RenderSampleTests {
    @Test("the sample exposition has the series count the timing reports")
    func seriesCount() {
        let sample = SampleExposition(engineCount: 7)
        let output = sample.render(.prometheusText)
        let lines = output.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count { $0.first != UInt8(ascii: "#") } == sample.seriesCount)
    }
}
