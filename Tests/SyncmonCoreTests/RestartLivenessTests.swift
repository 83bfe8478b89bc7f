import Foundation
import SyncmonCore
import Testing

/// Liveness across a daemon restart (docs/protocol.md#liveness): stopped stays
/// stopped, down stays down, a heartbeat promise or a tie to an open push connection gets its
/// grace from the daemon's start, and the start gives every stall clock the full threshold.
@Suite("Liveness across a restart")
struct RestartLivenessTests {
    static func key(_ engine: String) -> PairKey { PairKey(engine: name(engine), database: .private) }

    /// The first run: each engine's life up to the save at 100 s; connections 3 and 4 are
    /// still open when the daemon stops.
    static func firstRun() -> Monitor {
        var monitor = Monitor()
        func apply(_ engine: String, _ payload: EventPayload, _ seconds: Int64, connection: UInt64? = nil) {
            monitor.apply(Event(engine: name(engine), payload: payload), at: at(seconds), connection: connection)
        }
        apply("stopper", .engineStarted(heartbeatInterval: span(30)), 0, connection: 1)
        apply("stopper", .accountStatus(.available), 1, connection: 1)
        apply("stopper", .willFetchChanges, 2, connection: 1)
        apply("stopper", .engineStopped, 3, connection: 1)
        apply("crashed", .engineStarted(heartbeatInterval: nil), 0, connection: 2)
        monitor.connectionClosed(2)
        apply("promiser", .engineStarted(heartbeatInterval: span(30)), 0, connection: 3)
        apply("promiser", .accountStatus(.available), 1, connection: 3)
        apply("promiser", .willFetchChanges, 90, connection: 3)
        apply("tied", .engineStarted(heartbeatInterval: nil), 0, connection: 4)
        apply("tied", .accountStatus(.available), 1, connection: 4)
        apply("tied", .willFetchChanges, 2, connection: 4)
        apply("tied", .didFetchChanges, 3, connection: 4)
        // `syncmon emit`: one line per connection, each released as it closes.
        for (payload, seconds, connection) in [
            (EventPayload.engineStarted(heartbeatInterval: nil), Int64(0), UInt64(5)), (.willFetchChanges, 1, 6), (.didFetchChanges, 2, 7),
        ] {
            apply("emitted", payload, seconds, connection: connection)
            _ = monitor.connectionReleased(connection)
        }
        // `syncmon wrap`: one run on one connection, from `runStarted` to `runEnded`.
        apply("wrapped", .runStarted(heartbeatInterval: span(10)), 0, connection: 8)
        apply("wrapped", container(.export, id: "run", started: 0), 0, connection: 8)
        apply("wrapped", container(.export, id: "run", started: 0, ended: 5, succeeded: true), 5, connection: 8)
        apply("wrapped", .runEnded, 5, connection: 8)
        monitor.connectionClosed(8)
        apply("missed", .runStarted(heartbeatInterval: span(10)), 0)
        apply("importing", .willFetchChanges, 50)
        return monitor
    }

    /// The first run saved at 100 s, restored by a daemon started at `start`.
    static func restarted(at start: Int64) throws -> Monitor {
        var monitor = Monitor()
        for (key, state) in Self.firstRun().pairs {
            let saved = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(state))
            monitor.restore(key, saved, savedAt: at(100), start: at(start))
        }
        return monitor
    }

    @Test(
        "each pair's summary after a restart at 1000 s",
        arguments: [
            ("stopper", 1_000, Summary.stopped), ("stopper", 100_000, .stopped),
            ("crashed", 1_000, .engineDown), ("crashed", 100_000, .engineDown),
            // 3 × 30 s from the daemon's start.
            ("promiser", 1_000, .inProgress), ("promiser", 1_089, .inProgress), ("promiser", 1_090, .engineDown),
            // Tied without a promise: 60 s for its client to reconnect.
            ("tied", 1_059, .succeeded), ("tied", 1_060, .engineDown),
            // Only ever heard through one-shot connections (`syncmon emit`): nothing to wait for.
            ("emitted", 1_000, .succeeded), ("emitted", 1_060, .succeeded), ("emitted", 100_000, .succeeded),
            // A `syncmon wrap` run that ended: the outcome of the run, whatever the time.
            ("wrapped", 1_000, .succeeded), ("wrapped", 1_060, .succeeded), ("wrapped", 100_000, .succeeded),
            // Had missed its heartbeats (3 × 10 s after 0) before the save: down at once.
            ("missed", 1_000, .engineDown),
            // No promise, no tie: up; its open import gets the full 300 s from the start.
            ("importing", 1_299, .inProgress), ("importing", 1_300, .stalled),
        ])
    func summaries(engine: String, seconds: Int64, expected: Summary) throws {
        let monitor = try Self.restarted(at: 1_000)
        #expect(monitor.evaluate(Self.key(engine), at: at(seconds))?.summary == expected)
    }

    @Test("no look after the restart finds a stall before a full threshold has passed since the start")
    func nothingStalledAtAnyLook() throws {
        var monitor = try Self.restarted(at: 1_000)
        var raised: [String] = []
        for seconds in stride(from: Int64(1_000), to: 1_300, by: 1) {
            for change in monitor.changes(at: at(seconds)) {
                if case .stallRaised = change.kind { raised.append("\(change.key.engine) at \(seconds)") }
                #expect(change.evaluation.summary != .stalled, "\(change.key.engine) at \(seconds)")
            }
        }
        #expect(raised.isEmpty)
        // And the liveness verdicts fall due on time, found by the deadline-driven looks alone.
        #expect(monitor.pairs[Self.key("promiser")]?.reported?.summary == .engineDown)
        #expect(monitor.pairs[Self.key("tied")]?.reported?.summary == .engineDown)
        #expect(monitor.pairs[Self.key("emitted")]?.reported?.summary == .succeeded)
        #expect(monitor.pairs[Self.key("wrapped")]?.reported?.summary == .succeeded)
    }

    @Test(
        "a one-shot connection releases the tie its line made, and only that one",
        arguments: [
            // (tied to, released, liveness after)
            (UInt64(5), UInt64(5), Liveness.up(heartbeat: nil, connection: nil)),
            (5, 6, .up(heartbeat: nil, connection: 5)),
        ])
    func released(tiedTo connection: UInt64, released: UInt64, expected: Liveness) {
        var monitor = Monitor()
        monitor.apply(Event(engine: notes, payload: .engineStarted(heartbeatInterval: nil)), at: at(0), connection: connection)
        #expect(monitor.connectionReleased(released) == (connection == released))
        #expect(monitor.pairs[notesKey]?.liveness == expected)
        // A promise survives the release: the engine is still down 3 × it after its last event.
        var promising = Monitor()
        promising.apply(Event(engine: notes, payload: .engineStarted(heartbeatInterval: span(10))), at: at(0), connection: connection)
        _ = promising.connectionReleased(released)
        #expect(promising.evaluate(notesKey, at: at(30))?.summary == .engineDown)
    }

    @Test("a restored pair heard from again is up, keeps its promise, and is down 3 × it after its last event")
    func heardAgain() throws {
        var monitor = try Self.restarted(at: 1_000)
        monitor.apply(Event(engine: name("promiser"), payload: .heartbeat), at: at(1_050), connection: 9)
        #expect(monitor.pairs[Self.key("promiser")]?.liveness == .up(heartbeat: span(30), connection: nil))
        #expect(monitor.evaluate(Self.key("promiser"), at: at(1_139))?.summary == .inProgress)
        #expect(monitor.evaluate(Self.key("promiser"), at: at(1_140))?.summary == .engineDown)
        monitor.apply(Event(engine: name("crashed"), payload: .heartbeat), at: at(1_050))
        #expect(monitor.evaluate(Self.key("crashed"), at: at(5_000))?.summary != .engineDown)
        monitor.apply(Event(engine: name("stopper"), payload: .engineStarted(heartbeatInterval: nil)), at: at(1_050), connection: 10)
        #expect(monitor.evaluate(Self.key("stopper"), at: at(1_051))?.summary != .stopped)
    }

    @Test(
        "a source that cannot reach its engine takes the engine's restored pairs down at once, and no other's",
        arguments: [
            // (engine whose source is lost, engine looked at, summary just after, summary after a new start)
            ("tied", "tied", Summary.engineDown, Summary.inProgress),
            ("promiser", "promiser", .engineDown, .inProgress),
            ("tied", "promiser", .inProgress, .inProgress),
            // Stopped and up pairs are not the restart's to take down.
            ("stopper", "stopper", .stopped, .inProgress),
            ("emitted", "emitted", .succeeded, .inProgress),
        ])
    func sourceLost(lost: String, looked: String, expected: Summary, afterStart: Summary) throws {
        var monitor = try Self.restarted(at: 1_000)
        monitor.sourceLost(name(lost), connection: 99)
        #expect(monitor.evaluate(Self.key(looked), at: at(1_001))?.summary == expected)
        // Heard from again through the source's connection: up, and tied to it.
        monitor.apply(Event(engine: name(looked), payload: .engineStarted(heartbeatInterval: nil)), at: at(1_002), connection: 99)
        #expect(monitor.evaluate(Self.key(looked), at: at(1_003))?.summary == afterStart)
        monitor.sourceLost(name(looked), connection: 99)
        #expect(monitor.evaluate(Self.key(looked), at: at(1_004))?.summary == .engineDown)
    }

    @Test("a second restart before the grace ran out gives the grace again; after it, the pair stays down")
    func restartTwice() throws {
        let first = try Self.restarted(at: 1_000)
        var second = Monitor()
        for (key, state) in first.pairs {
            let saved = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(state))
            // "tied" (grace until 1060) saved at 1030: a new grace; "promiser" saved after its 1090: down.
            second.restore(key, saved, savedAt: at(key.engine == name("promiser") ? 1_095 : 1_030), start: at(2_000))
        }
        #expect(second.evaluate(Self.key("tied"), at: at(2_059))?.summary == .succeeded)
        #expect(second.evaluate(Self.key("tied"), at: at(2_060))?.summary == .engineDown)
        #expect(second.evaluate(Self.key("promiser"), at: at(2_000))?.summary == .engineDown)
        #expect(second.evaluate(Self.key("stopper"), at: at(2_000))?.summary == .stopped)
    }

    @Test(
        "the liveness a state file keeps, and reads back",
        arguments: [
            (EventPayload.engineStopped, nil, false, Liveness.stopped),
            (.engineStarted(heartbeatInterval: span(5)), 1, true, .down(heartbeat: span(5))),
            (.heartbeat, nil, false, .up(heartbeat: nil, connection: nil)),
            (.runStarted(heartbeatInterval: span(5)), nil, false, .up(heartbeat: span(5), connection: nil)),
            // A connection id means nothing to the next run: the pair waits for its client.
            (.engineStarted(heartbeatInterval: nil), 7, false, .restored(heartbeat: nil, deadline: .distantFuture)),
            (.engineStarted(heartbeatInterval: span(5)), 7, false, .restored(heartbeat: span(5), deadline: at(15))),
        ] as [(EventPayload, UInt64?, Bool, Liveness)])
    func persistedForm(payload: EventPayload, connection: UInt64?, closes: Bool, expected: Liveness) throws {
        var monitor = Monitor()
        monitor.apply(Event(engine: notes, payload: payload), at: at(0), connection: connection)
        if closes, let connection { monitor.connectionClosed(connection) }
        let state = try #require(monitor.pairs[notesKey])
        let decoded = try JSONDecoder().decode(PairState.self, from: JSONEncoder().encode(state))
        #expect(decoded.liveness == expected)
    }
}
