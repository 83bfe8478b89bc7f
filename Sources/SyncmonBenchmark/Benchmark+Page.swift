import SyncmonCore
import SyncmonPage

extension Benchmark {
    /// The status page at 1,000 pairs against its limits (docs/page.md): rendered in ≤ 50 ms,
    /// at most 64 KiB and 400 bytes a pair before gzip. Twice: a monitor fed synthetic traffic
    /// (the daemon's path, model and page), and the page's sample fleet (failures with messages,
    /// a canary in ten, five changes of health a pair), which is the larger page.
    static func renderPage() {
        let pairs = 1000
        let now = Timestamp(seconds: 1_795_000_100)
        var monitor = Monitor(configuration: MonitorConfiguration(maximumPairs: pairs))
        let traffic = SyntheticTraffic(engines: pairs / 2).lines(count: pairs * 24)
        var decoder = EventDecoder()
        var framer = LineFramer()
        var event = Event(engine: InlineName(), payload: .heartbeat)
        traffic.withUnsafeBytes { bytes in
            framer.feed(bytes) { line in
                guard case .line(let text) = line, decoder.decode(text, into: &event) == .event else { return }
                monitor.apply(event, at: event.time ?? Timestamp(seconds: 0))
            }
        }
        let sample = PageSample.model(pairs: pairs, now: now)
        let cases: [(String, Int, () -> [UInt8])] = [
            (
                "status page, \(Self.grouped(Double(monitor.pairs.count))) pairs (traffic)", monitor.pairs.count,
                {
                    StatusPage.render(PageModel(monitor: monitor, host: "bench", now: now))
                }
            ),
            ("status page, \(Self.grouped(Double(pairs))) pairs (sample)", pairs, { StatusPage.render(sample) }),
        ]
        for (name, count, render) in cases {
            var best = Double.infinity
            var size = 0
            for _ in 0..<5 {
                let started = Self.monotonicSeconds()
                size = render().count
                best = min(best, Self.monotonicSeconds() - started)
            }
            let milliseconds = best * 1000
            let limit = PageSample.sizeLimit(pairs: count)
            print(
                Self.row(
                    name, "\(Self.fixed(milliseconds, 2)) ms, \(Self.grouped(Double(size) / 1024)) KiB",
                    "≤ 50 ms, ≤ \(Self.grouped(Double(limit) / 1024)) KiB", milliseconds <= 50 && size <= limit))
        }
    }
}
