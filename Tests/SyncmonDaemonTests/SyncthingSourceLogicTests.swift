import SyncmonCore
import Testing

@testable import SyncmonDaemon
@testable import SyncmonSources

/// A Syncthing source's decisions without I/O (docs/syncthing.md#when-syncthing-is-unreachable):
/// when a failed try calls the engine down and how long until the next, and a snapshot applied
/// as one state, so that reconnecting reports one verdict change per folder.
@Suite("Syncthing source: retries and snapshots")
struct SyncthingSourceLogicTests {
    /// Always the middle of the range: the jitter's factor is 1.
    struct MiddleRandom: RandomNumberGenerator {
        mutating func next() -> UInt64 { UInt64.max / 2 }
    }

    @Test(
        "a refusal is down at that try; anything else after one quick retry; the wait is capped at 2 s",
        arguments: [
            // Each failed try (refused or not) → (engine lost, delay in seconds).
            ([true], [(true, 0.5)]),
            ([false], [(false, 0.2)]),
            ([false, false], [(false, 0.2), (true, 0.5)]),
            ([false, true], [(false, 0.2), (true, 0.5)]),
            ([true, true, true, true, true, true], [(true, 0.5), (true, 1), (true, 2), (true, 2), (true, 2), (true, 2)]),
        ])
    func decisions(refusals: [Bool], expected: [(Bool, Double)]) {
        var retry = SyncthingRetry()
        var random = MiddleRandom()
        let decisions = refusals.map { retry.failed(refused: $0, using: &random) }
        #expect(decisions.map(\.engineLost) == expected.map(\.0))
        for (decision, (_, delay)) in zip(decisions, expected) { #expect(abs(decision.delay - delay) < 0.01, "\(decisions)") }
    }

    @Test("an answer starts the schedule over")
    func answerResets() {
        var retry = SyncthingRetry()
        var random = MiddleRandom()
        for _ in 0..<5 { _ = retry.failed(refused: true, using: &random) }
        retry.answered()
        #expect(retry.failuresInARow == 0)
        #expect(retry.failed(refused: false, using: &random) == .init(engineLost: false, delay: 0.2))
        #expect(abs(retry.failed(refused: false, using: &random).delay - 0.5) < 0.01)
    }

    static let pair = PairKey(engine: InlineName("st")!, database: Database("shared")!)

    static func event(_ payload: EventPayload) -> Event {
        Event(engine: Self.pair.engine, database: Self.pair.database, payload: payload)
    }

    @Test(
        "a restarted Syncthing's snapshot: one verdict change as one state, a passing no_network event by event",
        arguments: [(true, ["engine_down", "succeeded"]), (false, ["engine_down", "no_network", "in_progress"])])
    func snapshotAsOneState(asOneState: Bool, expected: [String]) {
        let store = MonitorStore(configuration: MonitorConfiguration())
        let connection: UInt64 = 1 << 63
        let t0 = Timestamp(seconds: 1_795_000_000)
        var logged: [String] = []
        func apply(_ payloads: [EventPayload], at seconds: Int64, oneState: Bool) {
            var batch = IngestBatch()
            for payload in payloads { batch.add(Self.event(payload)) }
            let now = t0.adding(.seconds(seconds))
            let outcome = store.apply(batch, transport: .subscribe, connection: connection, asOneState: oneState, now: now)
            for change in outcome.changes where change.key == Self.pair {
                if case .summaryChanged = change.kind { logged.append(change.evaluation.summary.description) }
            }
        }
        // Running, in sync; then its peer leaves and the API goes away.
        let heartbeat = TimeSpan.seconds(Int64(23))
        apply([.engineStarted(heartbeatInterval: heartbeat), .networkStatus(available: true), .willFetchChanges, .didFetchChanges], at: 0, oneState: true)
        apply([.networkStatus(available: false)], at: 10, oneState: false)
        logged = []
        _ = store.sourceLost(Self.pair.engine, connection: connection, now: t0.adding(.seconds(Int64(11))))
        logged.append(store.snapshot().monitor.evaluate(Self.pair, at: t0.adding(.seconds(Int64(11))))?.summary.description ?? "?")
        // Back: the snapshot says it runs, is connected to its peer and in sync.
        apply(
            [.engineStarted(heartbeatInterval: heartbeat), .networkStatus(available: true), .willFetchChanges, .didFetchChanges], at: 20,
            oneState: asOneState)
        #expect(logged == expected)
    }
}
