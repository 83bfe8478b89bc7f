import SyncmonCore
import Testing

/// A pair is looked at again only once its verdict can have changed (an event, a stall falling
/// due, a heartbeat limit, a throttle end). These tests prove the skip never hides a change:
/// on random streams, the verdict the monitor last reported always equals a fresh evaluation.
@Suite("Monitor: verdict deadlines")
struct VerdictDeadlineTests {
    /// Payloads that move every part of the verdict: cycles, failures of each class, throttles,
    /// conditions, heartbeats, stops.
    static func randomPayload(_ random: inout SeededGenerator) -> EventPayload {
        switch Int.random(in: 0..<18, using: &random) {
        case 0: .willFetchChanges
        case 1: .didFetchChanges
        case 2: .willSendChanges
        case 3: .didSendChanges
        case 4: .fetchedDatabaseChanges(modifications: 1, deletions: 0)
        case 5: sentRecords(saved: 0, deleted: 0, err(.quotaExceeded))
        case 6: sentRecords(saved: 0, deleted: 0, err(.networkFailure))
        case 7: .error(phase: nil, error: err(.requestRateLimited, retryAfter: Int64.random(in: 1...40, using: &random)))
        case 8: .error(phase: .setup, error: err(.quotaExceeded))
        case 9: pending(Int64.random(in: 0...2, using: &random), 0)
        case 10: .networkStatus(available: Bool.random(using: &random))
        case 11: .accountStatus(Bool.random(using: &random) ? .available : .noAccount)
        case 12: engineStarted(heartbeat: Bool.random(using: &random) ? 5 : nil)
        case 13: .heartbeat
        case 14: .engineStopped
        case 15: container(.export, id: "op", started: 0, ended: nil)
        case 16: sentRecords(saved: 2)
        default: .accountChange(.signIn)
        }
    }

    @Test("the reported verdict is always the true verdict, with ticks skipping pairs not due", arguments: 0..<40)
    func reportedIsTrue(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let thresholds = StallThresholds(
            notSyncing: span(Int64.random(in: 0...30, using: &random)),
            noProgress: span(Int64.random(in: 0...30, using: &random)),
            pendingNotDraining: span(Int64.random(in: 0...60, using: &random)),
            retryLoop: span(Int64.random(in: 0...90, using: &random)),
            noRecentImport: span(Int64.random(in: 0...120, using: &random)),
            noRecentExport: span(Int64.random(in: 0...120, using: &random))
        )
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: thresholds))
        let engines = ["a", "b", "c"]
        var changes: [StatusChange] = []
        var time: Int64 = 0
        for _ in 0..<400 {
            time += Int64.random(in: 0...4, using: &random)
            if Int.random(in: 0..<3, using: &random) == 0 {
                // A tick: every pair is due or provably unchanged.
                changes += monitor.changes(at: at(time))
            } else {
                let engine = engines.randomElement(using: &random)!
                let event = Event(engine: name(engine), payload: Self.randomPayload(&random))
                monitor.apply(event, at: at(time), connection: nil, now: at(time), changes: &changes)
            }
            if Int.random(in: 0..<20, using: &random) == 0 {
                // Thresholds reloaded: every deadline is void.
                monitor.configuration.thresholds.noProgress = span(Int64.random(in: 0...30, using: &random))
                changes += monitor.changes(at: at(time))
            }
            if Int.random(in: 0..<15, using: &random) == 0 {
                // The host's network view moved: pairs without a word of their own are due at once.
                let status = [NetworkStatus.available, .unavailable, .unknown].randomElement(using: &random)!
                changes += monitor.setHostNetwork(status, at: at(time))
            }
            for (key, state) in monitor.pairs where state.reported != nil {
                let truth = state.evaluate(at: at(time), thresholds: monitor.configuration.thresholds(for: key.engine))
                let reported = state.reported
                // Only a tick or an event refreshes a pair; after either, the report is the truth.
                if Int.random(in: 0..<4, using: &random) == 0 {
                    changes += monitor.changes(at: at(time))
                    #expect(monitor.pairs[key]?.reported == truth, "seed \(seed), \(key) at \(time)s: reported \(String(describing: reported))")
                }
            }
        }
        // A final tick after a long quiet spell brings every stall, heartbeat limit and throttle end.
        changes += monitor.changes(at: at(time + 10_000))
        for (key, state) in monitor.pairs {
            let truth = state.evaluate(at: at(time + 10_000), thresholds: monitor.configuration.thresholds(for: key.engine))
            #expect(state.reported == truth, "seed \(seed), \(key) after the quiet spell")
        }
    }

    @Test("a pair that is not due is not re-evaluated; one that is, is")
    func skipsUntilDue() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        var changes: [StatusChange] = []
        monitor.apply(Event(engine: notes, payload: .willFetchChanges), at: at(0), connection: nil, now: at(0), changes: &changes)
        #expect(monitor.changes(at: at(99)).isEmpty)
        #expect(monitor.changes(at: justBefore(100)).isEmpty)
        let due = monitor.changes(at: at(100))
        #expect(due.map(\.kind) == [.stallRaised(.noProgress), .summaryChanged(from: .inProgress)])
    }

    @Test("a connection closing makes its tied pairs due at once")
    func connectionClosing() {
        var monitor = Monitor()
        var changes: [StatusChange] = []
        monitor.apply(Event(engine: notes, payload: engineStarted()), at: at(0), connection: 7, now: at(0), changes: &changes)
        #expect(monitor.changes(at: at(1)).isEmpty)
        monitor.connectionClosed(7)
        #expect(monitor.changes(at: at(1)).map(\.kind) == [.summaryChanged(from: .notStarted)])
        #expect(monitor.pairs[notesKey]?.reported?.summary == .engineDown)
    }

    @Test("nothing changes before nextLook: the daemon may sleep until it", arguments: 0..<40)
    func nextLookIsNeverLate(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 1_000)
        let thresholds = StallThresholds(
            notSyncing: span(Int64.random(in: 1...30, using: &random)),
            noProgress: span(Int64.random(in: 1...30, using: &random)),
            pendingNotDraining: span(Int64.random(in: 1...60, using: &random)),
            retryLoop: span(Int64.random(in: 1...90, using: &random)),
            noRecentImport: span(Int64.random(in: 1...120, using: &random)),
            noRecentExport: span(Int64.random(in: 1...120, using: &random))
        )
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: thresholds))
        var changes: [StatusChange] = []
        var time: Int64 = 0
        var sleeps = 0
        for _ in 0..<300 {
            time += Int64.random(in: 0...4, using: &random)
            let event = Event(engine: name(["a", "b", "c"].randomElement(using: &random)!), payload: Self.randomPayload(&random))
            monitor.apply(event, at: at(time), connection: nil, now: at(time), changes: &changes)
            guard Int.random(in: 0..<3, using: &random) == 0 else { continue }
            // The daemon's evaluation: look now, then sleep until nextLook.
            changes += monitor.changes(at: at(time))
            let wake = monitor.nextLook
            #expect(wake > at(time), "seed \(seed): a look at \(time)s leaves the next one in the future")
            // Just before the wake-up every verdict is still the reported one...
            let probe = min(wake, at(time + 5_000)).microseconds - 1
            for (key, state) in monitor.pairs {
                let truth = state.evaluate(at: Timestamp(microseconds: probe), thresholds: thresholds)
                #expect(state.reported == truth, "seed \(seed), \(key): changed before nextLook \(wake) (probe \(probe))")
            }
            // ...and a look then finds nothing.
            var copy = monitor
            #expect(copy.changes(at: Timestamp(microseconds: probe)).isEmpty)
            if wake < at(time + 5_000) { sleeps += 1 }
        }
        #expect(sleeps > 0, "seed \(seed): some look must have had a deadline to sleep until")
    }

    @Test("nextLook: now after an unobserved change, the earliest threshold after a look, never while idle")
    func nextLookValues() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        #expect(monitor.changes(at: at(0)).isEmpty)
        #expect(monitor.nextLook == .distantFuture)
        monitor.apply(Event(engine: notes, payload: .willFetchChanges), at: at(5))
        #expect(monitor.nextLook == .distantPast)
        _ = monitor.changes(at: at(5))
        #expect(monitor.nextLook == at(105))
        _ = monitor.changes(at: at(105))
        #expect(monitor.nextLook == .distantFuture)
        monitor.configuration.thresholds.noProgress = span(10)
        #expect(monitor.nextLook == .distantPast)
    }
}
