import Foundation
import SyncmonCore
import Testing

/// Pairs whose engine never reported `networkStatus` take the host's own network view: status,
/// summary, suppression, and the full threshold after the host comes back (docs/protocol.md,
/// "Account and network"). An engine's own word wins for good; replay never has a host view.
@Suite("Host network view: pairs")
struct HostNetworkStateTests {
    /// What happens, in seconds after the base instant.
    enum Step: Sendable, CustomStringConvertible {
        /// An event of engine `notes` (its only pair).
        case event(Int64, EventPayload)
        /// The host view changes.
        case host(Int64, NetworkStatus)

        var time: Int64 {
            switch self {
            case .event(let time, _), .host(let time, _): time
            }
        }

        var description: String {
            switch self {
            case .event(let time, let payload): "\(time)s \(payload.type)"
            case .host(let time, let status): "\(time)s host \(status)"
            }
        }
    }

    /// A table row: steps, then what the pair looks like at each probe time.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var steps: [Step]
        /// (seconds, network, summary, stalls) at each probe.
        var probes: [(Int64, NetworkStatus, Summary, [StallReason])]
        var testDescription: String { self.name }
    }

    static let noProgress: [StallReason] = [.noProgress]
    /// A `wrap`-like export that starts at 0 and never ends.
    static let openExport = container(.export, id: "run", started: 0)

    static let cases: [Case] = [
        Case(
            name: "never spoke: takes the host view, offline is no_network and no stall, however long",
            steps: [.host(0, .available), .event(0, openExport), .host(2, .unavailable)],
            probes: [(1, .available, .inProgress, []), (2, .unavailable, .noNetwork, []), (100, .unavailable, .noNetwork, [])]
        ),
        Case(
            name: "the host comes back: the stall fires a full threshold after the return, not before",
            steps: [.host(0, .available), .event(0, openExport), .host(2, .unavailable), .host(20, .available)],
            probes: [(20, .available, .inProgress, []), (25, .available, .inProgress, []), (26, .available, .stalled, noProgress)]
        ),
        Case(
            name: "without a host view (off, replay) the network stays unknown and the stall fires from the start",
            steps: [.event(0, openExport)],
            probes: [(5, .unknown, .inProgress, []), (6, .unknown, .stalled, noProgress)]
        ),
        Case(
            name: "an engine that reported available ignores the host going offline",
            steps: [.host(0, .available), .event(0, openExport), .event(0, .networkStatus(available: true)), .host(2, .unavailable)],
            probes: [(5, .available, .inProgress, []), (6, .available, .stalled, noProgress)]
        ),
        Case(
            name: "an engine that reported unavailable stays so while the host is online",
            steps: [.host(0, .available), .event(0, .networkStatus(available: false))],
            probes: [(1, .unavailable, .noNetwork, [])]
        ),
        Case(
            name: "an engine that speaks while the host is offline: its word wins, its clock restarts then",
            steps: [.host(0, .unavailable), .event(0, openExport), .event(10, .networkStatus(available: true))],
            probes: [(9, .unavailable, .noNetwork, []), (15, .available, .inProgress, []), (16, .available, .stalled, noProgress)]
        ),
        Case(
            name: "an engine that spoke once keeps its word after the host changes back and forth",
            steps: [
                .host(0, .available), .event(0, .networkStatus(available: false)), .host(1, .unavailable), .host(2, .available),
            ],
            probes: [(3, .unavailable, .noNetwork, [])]
        ),
        Case(
            name: "a pair first seen while the host is offline: no_network, then the full threshold from the return",
            steps: [.host(0, .unavailable), .event(5, openExport), .host(30, .available)],
            probes: [(29, .unavailable, .noNetwork, []), (35, .available, .inProgress, []), (36, .available, .stalled, noProgress)]
        ),
        Case(
            name: "the host view lost (rtnetlink failed) after offline: unknown ends the suppression",
            steps: [.host(0, .unavailable), .event(0, openExport), .host(10, .unknown)],
            probes: [(15, .unknown, .inProgress, []), (16, .unknown, .stalled, noProgress)]
        ),
        Case(
            name: "a stall that fired stays cleared while the host is offline and comes back only after the full threshold",
            steps: [.host(0, .available), .event(0, openExport), .host(10, .unavailable), .host(12, .available)],
            probes: [
                (9, .available, .stalled, noProgress), (11, .unavailable, .noNetwork, []), (17, .available, .inProgress, []),
                (18, .available, .stalled, noProgress),
            ]
        ),
    ]

    @Test(arguments: cases)
    func pair(_ row: Case) {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 6)))
        var changes: [StatusChange] = []
        var steps = row.steps[...]
        for (time, network, summary, stalls) in row.probes {
            while let step = steps.first, step.time <= time {
                steps.removeFirst()
                switch step {
                case .event(let time, let payload):
                    monitor.apply(Event(engine: notes, payload: payload), at: at(time), connection: nil, now: at(time), changes: &changes)
                case .host(let time, let status):
                    changes += monitor.setHostNetwork(status, at: at(time))
                }
            }
            changes += monitor.changes(at: at(time))
            let state = monitor.pairs[notesKey]
            #expect(state?.network == network, "at \(time)s")
            #expect(state?.evaluate(at: at(time), thresholds: monitor.configuration.thresholds).summary == summary, "at \(time)s")
            #expect(state.map { Array($0.evaluate(at: at(time), thresholds: monitor.configuration.thresholds).stalls) } == stalls, "at \(time)s")
            // What was last reported is the truth: the host change made the pair due at once.
            #expect(state?.reported?.summary == summary, "reported at \(time)s")
        }
    }

    @Test("the host change itself reports the pairs it moves, once, and not the pairs that spoke")
    func changesOfHostMove() {
        var monitor = Monitor()
        var changes: [StatusChange] = []
        monitor.apply(Event(engine: name("job"), payload: Self.openExport), at: at(0), connection: nil, now: at(0), changes: &changes)
        monitor.apply(Event(engine: name("self"), payload: .networkStatus(available: true)), at: at(0), connection: nil, now: at(0), changes: &changes)
        #expect(monitor.setHostNetwork(.available, at: at(1)).isEmpty)
        let offline = monitor.setHostNetwork(.unavailable, at: at(2))
        #expect(offline.map(\.key.engine) == [name("job")])
        #expect(offline.map(\.kind) == [.summaryChanged(from: .inProgress)])
        #expect(offline.first?.evaluation.summary == .noNetwork)
        #expect(monitor.setHostNetwork(.unavailable, at: at(3)).isEmpty)
        #expect(monitor.changes(at: at(3)).isEmpty)
        #expect(monitor.setHostNetwork(.available, at: at(4)).map(\.kind) == [.summaryChanged(from: .noNetwork)])
        #expect(monitor.hostNetwork == .available)
    }

    @Test("a stall that fell due just before the host went offline is reported, then cleared")
    func stallBeforeOffline() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 6)))
        var changes: [StatusChange] = []
        monitor.apply(Event(engine: notes, payload: Self.openExport), at: at(0), connection: nil, now: at(0), changes: &changes)
        // No tick between 6 s and the host going offline at 6.5 s.
        let moved = monitor.setHostNetwork(.unavailable, at: Timestamp(microseconds: at(6).microseconds + 500_000))
        #expect(
            moved.map(\.kind) == [
                .stallRaised(.noProgress), .summaryChanged(from: .inProgress),
                .stallCleared(.noProgress), .summaryChanged(from: .stalled),
            ])
    }

    @Test("the engine's word is persisted under `network`, the host view is not; a restored pair takes the current view")
    func persistence() throws {
        var monitor = Monitor()
        _ = monitor.setHostNetwork(.unavailable, at: at(0))
        monitor.apply(Event(engine: name("job"), payload: Self.openExport), at: at(0))
        monitor.apply(Event(engine: name("self"), payload: .networkStatus(available: true)), at: at(0))
        let job = try #require(monitor.pairs[PairKey(engine: name("job"), database: .private)])
        let speaker = try #require(monitor.pairs[PairKey(engine: name("self"), database: .private)])
        #expect(job.network == .unavailable)

        let encodedJob = try JSONSerialization.jsonObject(with: JSONEncoder().encode(job)) as? [String: Any]
        let encodedSpeaker = try JSONSerialization.jsonObject(with: JSONEncoder().encode(speaker)) as? [String: Any]
        #expect(encodedJob?["network"] as? Int == NetworkStatus.unknown.rawValue)
        #expect(encodedSpeaker?["network"] as? Int == NetworkStatus.available.rawValue)
        #expect(encodedJob?["hostNetwork"] == nil && encodedJob?["engineNetwork"] == nil)

        let restoredJob = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(job))
        #expect(restoredJob.engineNetwork == .unknown)
        #expect(restoredJob.hostNetwork == .unknown)
        var restarted = Monitor()
        _ = restarted.setHostNetwork(.available, at: at(1))
        restarted.restore(PairKey(engine: name("job"), database: .private), restoredJob, savedAt: at(0), start: at(1))
        #expect(restarted.pairs[PairKey(engine: name("job"), database: .private)]?.network == .available)
        let restoredSpeaker = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(speaker))
        _ = restarted.setHostNetwork(.unavailable, at: at(2))
        restarted.restore(PairKey(engine: name("self"), database: .private), restoredSpeaker, savedAt: at(0), start: at(2))
        #expect(restarted.pairs[PairKey(engine: name("self"), database: .private)]?.network == .available)
    }

    @Test("replay has no host view: the network of a silent engine stays unknown")
    func replayHasNoHostView() {
        var session = ReplaySession()
        let line =
            #"{"v":1,"type":"containerEvent","engine":"job","time":"2026-11-21T12:00:00Z","kind":"export","id":"x","started":"2026-11-21T12:00:00Z"}"# + "\n"
        Array(line.utf8).withUnsafeBytes { session.feed($0) }
        session.finish(fallbackTime: at(0))
        #expect(session.monitor.hostNetwork == .unknown)
        #expect(session.monitor.pairs.values.map(\.network) == [.unknown])
    }
}
