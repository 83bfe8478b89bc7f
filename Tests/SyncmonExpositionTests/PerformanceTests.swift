import SyncmonExposition
import Testing

/// Times a full 1,000-engine exposition (~110,000 series). Prints the figure; asserts only a loose
/// bound, since debug builds and busy CI machines are far slower than the release target of ≤ 20 ms.
/// For a clean release figure: `swift test -c release --filter "Render timing"`.
@Suite("Render timing")
struct PerformanceTests {
    @Test("the sample exposition has the series count the timing reports")
    func seriesCount() {
        let sample = SampleExposition(engineCount: 7)
        let output = sample.render(.prometheusText)
        let lines = output.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count { $0.first != UInt8(ascii: "#") } == sample.seriesCount)
    }

    @Test("render 1,000 engines and print the time")
    func renderTiming() {
        let sample = SampleExposition(engineCount: 1000)
        let clock = ContinuousClock()
        for format in ExpositionFormat.allCases {
            var timings: [Duration] = []
            var bytes = 0
            for _ in 0..<5 {
                // Sized from the previous scrape, as the daemon will do.
                let capacity = bytes + bytes / 8
                let start = clock.now
                let output = sample.render(format, capacity: capacity)
                timings.append(clock.now - start)
                bytes = output.count
            }
            timings.sort()
            let median = timings[timings.count / 2]
            print(
                "render \(format): \(sample.seriesCount) series, \(bytes) bytes: best \(timings[0]), median \(median)"
            )
            #expect(median < .seconds(2))
        }
    }
}
