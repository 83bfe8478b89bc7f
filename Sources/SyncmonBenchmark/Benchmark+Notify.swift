import Foundation
import SyncmonCore
import SyncmonDaemon

/// The notification routes' cost (docs/performance.md, "Notification routes"): what five routes
/// add to decode + apply at 10,000 pairs, and that routes with nothing to do ask for no wakeup.
///
/// The routes never run per event: the notification service looks at every pair at most once a
/// second while events flow (`NotificationService.lookInterval`), and not at all while nothing
/// changes. So their cost is one look a second, taken here on the same core as decode + apply
/// (the worst case: the daemon has two).
extension Benchmark {
    static func notificationRoutes() {
        let pairs = 10_000
        let events = 1_000_000
        let traffic = SyntheticTraffic(engines: pairs / 2).lines(count: events)
        var monitor = Monitor(configuration: MonitorConfiguration(maximumPairs: pairs))
        var best = Double.infinity
        var last = Timestamp(seconds: 0)
        for _ in 0..<3 {
            var pass = Monitor(configuration: MonitorConfiguration(maximumPairs: pairs))
            let started = Self.monotonicSeconds()
            last = Self.apply(traffic, to: &pass)
            best = min(best, Self.monotonicSeconds() - started)
            monitor = pass
        }
        let rate = Double(events) / best

        // Five routes, each covering every pair (the most work a look can have), looked at as the
        // service does: the summaries now, the changes since the last look, every route.
        let policies = (0..<5).map { index in
            var policy = NotificationPolicy.defaults
            policy.when = [.error, .stalled, .engineDown, .noNetwork, .accountNotAvailable, .unknown]
            policy.hold = .seconds(Int64(60 * (index + 1)))
            return policy
        }
        var routes = policies.map { NotificationRoute(policy: $0) }
        var looks: [Double] = []
        var now = last
        for look in 0..<11 {
            let previous = now
            now = now.adding(.seconds(Int64(1)))
            let started = Self.monotonicSeconds()
            let summaries = monitor.summaries(at: now)
            let present = Set(summaries.map(\.key))
            let passed = NotificationService.changes(in: monitor, after: look == 0 ? nil : previous)
            for index in routes.indices {
                NotificationService.look(&routes[index], passed: passed, summaries: summaries, present: present, monitor: monitor, at: now)
            }
            // The first look fills the routes (as after a start); the rest are the steady state.
            if look > 0 { looks.append(Self.monotonicSeconds() - started) }
        }
        looks.sort()
        let median = looks[looks.count / 2]
        let added = median / 1.0 * 100
        print(
            Self.row(
                "5 notification routes, \(Self.grouped(Double(pairs))) pairs: one look",
                "\(Self.fixed(median * 1000, 2)) ms (best \(Self.fixed(looks[0] * 1000, 2)) ms), once a second at most", "(below)", nil))
        print(
            Self.row(
                "  added to decode + apply (\(Self.grouped(rate)) events/s, 1 core)",
                "\(Self.fixed(added, 2)) % (\(Self.grouped(rate * (1 - median))) events/s with the looks)", "≤ 5 %", added <= 5))

        // Nothing changing: every pair out of `when` leaves no deadline, so the service sleeps
        // until the next change. (Pairs in `when` wait only for their own hold or repeat.)
        let watched = routes.map { $0.state.alerts.count }
        let wakes = routes.compactMap { $0.nextWake() }.count
        let quiet = watched.allSatisfy { $0 == 0 }
        print(
            Self.row(
                "  wakeups while nothing changes", quiet ? "\(wakes) (no pair in `when`)" : "\(wakes) routes wait for \(watched) pairs' holds",
                "0 beyond the next deadline", quiet ? wakes == 0 : nil))
    }

    /// Decodes and applies `traffic` to `monitor` as the daemon does; returns the last event time.
    private static func apply(_ traffic: [UInt8], to monitor: inout Monitor) -> Timestamp {
        var decoder = EventDecoder()
        var framer = LineFramer()
        var event = Event(engine: InlineName(), payload: .heartbeat)
        var changes: [StatusChange] = []
        var last = Timestamp(seconds: 0)
        traffic.withUnsafeBytes { bytes in
            framer.feed(bytes) { line in
                guard case .line(let text) = line, decoder.decode(text, into: &event) == .event else { return }
                let time = event.time ?? Timestamp(seconds: 0)
                monitor.apply(stored: &event, at: time, lookingAt: time, changes: &changes)
                changes.removeAll(keepingCapacity: true)
                last = time
            }
        }
        return last
    }

    /// Event-to-status latency as `latency(binary:extraArguments:name:)` measures it, without
    /// notification routes and with five `command` routes covering every pair (issue 32: routes
    /// add ≤ 5 %), each on a daemon of its own: three rounds, alternating, the median of each
    /// figure, since a single pair of runs differs by more than 5 % on a shared machine.
    static func latencyWithRoutes(binary: String) throws {
        let configuration = "/tmp/syncmon-bench-routes-\(getpid()).conf"
        let routes = (1...5).map { "[notify route\($0)]\ncommand = /bin/true\nwhen = error, stalled, engine_down, no_network, unknown\n" }
        try Data(routes.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: configuration))
        defer { unlink(configuration) }
        var bare: [(p50: Double, p99: Double)] = []
        var routed: [(p50: Double, p99: Double)] = []
        for _ in 0..<3 {
            bare.append(try Self.latency(binary: binary))
            routed.append(try Self.latency(binary: binary, extraArguments: ["--config", configuration], name: "routes"))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let (p50, p99) = (median(bare.map(\.p50)), median(bare.map(\.p99)))
        let (routedP50, routedP99) = (median(routed.map(\.p50)), median(routed.map(\.p99)))
        print(Self.row("event → /api/v1/status, 10k events/s load", "p50 \(Self.fixed(p50, 2)) ms, p99 \(Self.fixed(p99, 2)) ms", "p99 ≤ 5 ms", p99 <= 5))
        print(
            Self.row(
                "  the same with 5 notification routes", "p50 \(Self.fixed(routedP50, 2)) ms, p99 \(Self.fixed(routedP99, 2)) ms", "p99 ≤ 5 ms",
                routedP99 <= 5))
        let added = (routedP50 / p50 - 1) * 100
        print(Self.row("  added by the routes (p50, medians of 3)", "\(Self.fixed(added, 1)) %", "≤ 5 %", added <= 5))
    }
}
