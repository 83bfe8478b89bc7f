import SyncmonCore
import Testing

/// The rules above one pair: duplicates by `seq`, the pair limit, connection ties, row order,
/// and the changes worth a log entry.
@Suite("Monitor")
struct MonitorTests {
    static func event(_ engine: String, _ database: Database, seq: Int64? = nil, _ payload: EventPayload) -> Event {
        Event(engine: name(engine), database: database, sequence: seq, payload: payload)
    }

    static func event(_ engine: String, seq: Int64? = nil, _ payload: EventPayload) -> Event {
        Self.event(engine, .private, seq: seq, payload)
    }

    static func event(seq: Int64? = nil, _ payload: EventPayload) -> Event {
        Self.event("notes", .private, seq: seq, payload)
    }

    static func key(_ engine: String, _ database: Database = .private) -> PairKey {
        PairKey(engine: name(engine), database: database)
    }

    @Test("summaries(at:) gives each pair the summary its status row has, at any time")
    func summariesMatchRows() {
        var monitor = Monitor()
        monitor.apply(Self.event("notes", .private, .willFetchChanges), at: at(0))
        monitor.apply(Self.event("notes", .shared, .networkStatus(available: false)), at: at(0))
        monitor.apply(Self.event("photos", .private, .willSendChanges), at: at(1))
        monitor.apply(Self.event("photos", .private, .didSendChanges), at: at(2))
        // Before and after the default stall thresholds have passed.
        for now in [at(3), at(3_600)] {
            let fromRows = monitor.rows(at: now).map { "\($0.key.engine)/\($0.key.database) \($0.summary)" }
            let summaries = monitor.summaries(at: now).map { "\($0.key.engine)/\($0.key.database) \($0.summary)" }.sorted()
            #expect(summaries == fromRows.sorted())
            #expect(summaries.count == 3)
        }
        #expect(Set(monitor.summaries(at: at(3)).map(\.summary)) != Set(monitor.summaries(at: at(3_600)).map(\.summary)))
    }

    @Test("the first event of a pair creates it")
    func createsPairs() {
        var monitor = Monitor()
        #expect(monitor.pairs.isEmpty)
        #expect(monitor.apply(Self.event(.willFetchChanges), at: at(5)) == .applied)
        #expect(monitor.pairs.count == 1)
        #expect(monitor.accepted == 1)
        #expect(monitor.pairs[notesKey]?.firstEvent == at(5))
        #expect(monitor.pairs[notesKey]?.importPhase.state == .inProgress(since: at(5)))
        #expect(monitor.evaluate(notesKey, at: at(5))?.summary == .inProgress)
        #expect(monitor.evaluate(Self.key("other"), at: at(5)) == nil)
    }

    @Test("each (engine, database) is its own pair")
    func pairsByDatabase() {
        var monitor = Monitor()
        monitor.apply(Self.event("notes", .private, .willFetchChanges), at: at(0))
        monitor.apply(Self.event("notes", .shared, .willSendChanges), at: at(0))
        monitor.apply(Self.event("notes", .public, .networkStatus(available: false)), at: at(0))
        monitor.apply(Self.event("photos", .private, .didFetchChanges), at: at(0))
        #expect(monitor.pairs.count == 4)
        #expect(monitor.pairs[Self.key("notes", .private)]?.exportPhase.state == .notStarted)
        #expect(monitor.pairs[Self.key("notes", .shared)]?.exportPhase.state == .inProgress(since: at(0)))
        #expect(monitor.pairs[Self.key("notes", .public)]?.network == .unavailable)
        #expect(monitor.pairs[Self.key("notes", .private)]?.network == .unknown)
    }

    @Test("an event whose seq is not above the pair's last accepted seq is dropped silently")
    func duplicates() {
        var monitor = Monitor()
        #expect(monitor.apply(Self.event(seq: 1, .willFetchChanges), at: at(0)) == .applied)
        #expect(monitor.apply(Self.event(seq: 2, .didFetchChanges), at: at(1)) == .applied)
        // A resumed stream repeats 2 and 1: a duplicate willFetchChanges must not reopen the import.
        #expect(monitor.apply(Self.event(seq: 2, .willFetchChanges), at: at(2)) == .duplicate)
        #expect(monitor.apply(Self.event(seq: 1, .willFetchChanges), at: at(3)) == .duplicate)
        #expect(monitor.apply(Self.event(seq: 0, .willFetchChanges), at: at(3)) == .duplicate)
        #expect(monitor.duplicates == 3)
        #expect(monitor.accepted == 2)
        #expect(RejectionReason.allCases.allSatisfy { monitor.rejectedCount($0) == 0 })
        let state = monitor.pairs[notesKey]
        #expect(state?.importPhase.state == .succeeded(started: at(0), ended: at(1)))
        #expect(state?.lastEvent == at(1))
        #expect(state?.lastSequence == 2)
        #expect(state?.sequenceGaps == 0)
    }

    @Test("gaps in seq are counted; events without seq are always applied")
    func gaps() {
        var monitor = Monitor()
        #expect(monitor.apply(Self.event(seq: 1, .heartbeat), at: at(0)) == .applied)
        #expect(monitor.apply(Self.event(seq: 5, .heartbeat), at: at(1)) == .applied)
        #expect(monitor.pairs[notesKey]?.sequenceGaps == 3)
        #expect(monitor.apply(Self.event(.heartbeat), at: at(2)) == .applied)
        #expect(monitor.apply(Self.event(.heartbeat), at: at(3)) == .applied)
        #expect(monitor.apply(Self.event(seq: 6, .heartbeat), at: at(4)) == .applied)
        #expect(monitor.apply(Self.event(seq: 9, .heartbeat), at: at(5)) == .applied)
        #expect(monitor.pairs[notesKey]?.sequenceGaps == 5)
        #expect(monitor.pairs[notesKey]?.lastSequence == 9)
        #expect(monitor.apply(Self.event(seq: 9, .heartbeat), at: at(6)) == .duplicate)
        #expect(monitor.apply(Self.event(seq: .max, .heartbeat), at: at(7)) == .applied)
        #expect(monitor.apply(Self.event(seq: .max, .heartbeat), at: at(8)) == .duplicate)
        #expect(monitor.apply(Self.event(seq: 0, .heartbeat), at: at(8)) == .duplicate)
        #expect(monitor.accepted == 7)
    }

    @Test("seq is per pair: another database or engine has its own")
    func sequencePerPair() {
        var monitor = Monitor()
        #expect(monitor.apply(Self.event("notes", .private, seq: 10, .heartbeat), at: at(0)) == .applied)
        #expect(monitor.apply(Self.event("notes", .shared, seq: 1, .heartbeat), at: at(1)) == .applied)
        #expect(monitor.apply(Self.event("photos", .private, seq: 1, .heartbeat), at: at(1)) == .applied)
        #expect(monitor.apply(Self.event("notes", .private, seq: 10, .heartbeat), at: at(2)) == .duplicate)
    }

    @Test("pairs beyond the limit are rejected with engine_limit; known pairs go on")
    func engineLimit() {
        var monitor = Monitor(configuration: MonitorConfiguration(maximumPairs: 2))
        #expect(monitor.apply(Self.event("a", .heartbeat), at: at(0)) == .applied)
        #expect(monitor.apply(Self.event("b", .heartbeat), at: at(0)) == .applied)
        let rejected = monitor.apply(Self.event("c", .heartbeat), at: at(1))
        #expect(rejected == .rejected(Rejection(.engineLimit, field: "engine")))
        // Another database of a known engine is a new pair too.
        #expect(monitor.apply(Self.event("a", .shared, .heartbeat), at: at(1)) == .rejected(Rejection(.engineLimit, field: "engine")))
        #expect(monitor.rejectedCount(.engineLimit) == 2)
        #expect(monitor.pairs.count == 2)
        #expect(monitor.pairs[Self.key("c")] == nil)
        #expect(monitor.apply(Self.event("a", .willFetchChanges), at: at(2)) == .applied)
        #expect(monitor.accepted == 3)
        // Forgetting a pair makes room.
        monitor.remove(Self.key("b"))
        #expect(monitor.apply(Self.event("c", .heartbeat), at: at(3)) == .applied)
        #expect(monitor.pairs.keys.sorted() == [Self.key("a"), Self.key("c")])
    }

    @Test("the default limit is 1,000 pairs")
    func defaultLimit() {
        var monitor = Monitor()
        #expect(monitor.configuration.maximumPairs == 1000)
        for index in 0..<1000 {
            #expect(monitor.apply(Self.event("engine-\(index)", .heartbeat), at: at(0)) == .applied)
        }
        #expect(monitor.apply(Self.event("engine-1000", .heartbeat), at: at(0)) == .rejected(Rejection(.engineLimit, field: "engine")))
        #expect(monitor.apply(Self.event("engine-999", .heartbeat), at: at(1)) == .applied)
        #expect(monitor.pairs.count == 1000)
    }

    @Test("decoder rejections are counted by reason")
    func rejectionCounts() {
        var monitor = Monitor()
        monitor.count(Rejection(.malformed))
        monitor.count(Rejection(.malformed))
        monitor.count(Rejection(.invalidField, field: "seq"))
        monitor.count(Rejection(.tooLarge))
        #expect(monitor.rejectedCount(.malformed) == 2)
        #expect(monitor.rejectedCount(.invalidField) == 1)
        #expect(monitor.rejectedCount(.tooLarge) == 1)
        #expect(monitor.rejectedCount(.unknownType) == 0)
        #expect(monitor.rejected == [2, 1, 0, 1, 0, 0, 0])
        #expect(monitor.pairs.isEmpty)
    }

    @Test("absurd retryAfter and heartbeatSeconds saturate instead of trapping")
    func absurdValues() throws {
        var monitor = Monitor()
        for line in [
            #"{"v":1,"engine":"notes","type":"engineStarted","heartbeatSeconds":1e300}"#,
            #"{"v":1,"engine":"notes","type":"error","error":{"code":"zoneBusy","retryAfter":1e300}}"#,
        ] {
            let event = try #require(decode(line).event)
            #expect(monitor.apply(event, at: at(0)) == .applied)
        }
        let state = try #require(monitor.pairs[notesKey])
        #expect(state.throttledUntil == Timestamp(microseconds: .max))
        #expect(state.isThrottled(at: at(1_000_000_000)))
        #expect(!state.isDown(at: at(1_000_000_000)))
        let rows = monitor.rows(at: at(10))
        #expect(rows.first?.summary == .throttled)
        #expect(statusJSON(rows: rows, now: at(10)).contains("\"throttledUntil\" : \""))
    }

    // MARK: Connections

    @Test("connectionClosed: engines that sent engineStarted on it are down until heard from again")
    func connectionTies() {
        var monitor = Monitor()
        monitor.apply(Self.event("tied", engineStarted()), at: at(0), connection: 1)
        monitor.apply(Self.event("tied", .willFetchChanges), at: at(1), connection: 1)
        monitor.apply(Self.event("emitter", .willFetchChanges), at: at(1), connection: 1)  // never sent engineStarted
        monitor.apply(Self.event("elsewhere", engineStarted()), at: at(0), connection: 2)
        monitor.apply(Self.event("stopped", engineStarted()), at: at(0), connection: 1)
        monitor.apply(Self.event("stopped", .engineStopped), at: at(1), connection: 1)

        monitor.connectionClosed(1)
        let now = at(2)
        #expect(monitor.evaluate(Self.key("tied"), at: now)?.summary == .engineDown)
        #expect(monitor.pairs[Self.key("tied")]?.isUp(at: now) == false)
        #expect(monitor.evaluate(Self.key("emitter"), at: now)?.summary == .inProgress)
        #expect(monitor.pairs[Self.key("emitter")]?.isUp(at: now) == true)
        #expect(monitor.evaluate(Self.key("elsewhere"), at: now)?.summary == .notStarted)
        #expect(monitor.evaluate(Self.key("stopped"), at: now)?.summary == .stopped)

        // Heard from again (on any connection, or none): up.
        monitor.apply(Self.event("tied", .heartbeat), at: at(3))
        #expect(monitor.evaluate(Self.key("tied"), at: at(3))?.summary == .inProgress)
        #expect(monitor.pairs[Self.key("tied")]?.isUp(at: at(3)) == true)
    }

    @Test("closing an unrelated connection changes nothing")
    func unrelatedConnection() {
        var monitor = Monitor()
        monitor.apply(Self.event("a", engineStarted()), at: at(0), connection: 1)
        monitor.connectionClosed(99)
        #expect(monitor.pairs[Self.key("a")]?.isUp(at: at(1)) == true)
        #expect(monitor.pairs[Self.key("a")]?.liveness.connection == 1)
    }

    @Test("one connection may carry several engines: all tied ones go down together")
    func severalEngines() {
        var monitor = Monitor()
        monitor.apply(Self.event("a", engineStarted()), at: at(0), connection: 5)
        monitor.apply(Self.event("b", .shared, engineStarted()), at: at(0), connection: 5)
        monitor.connectionClosed(5)
        #expect(monitor.rows(at: at(1)).map(\.up) == [false, false])
        #expect(monitor.rows(at: at(1)).map(\.summary) == [.engineDown, .engineDown])
    }

    @Test("a later engineStarted on a new connection ties the engine to that one")
    func retie() {
        var monitor = Monitor()
        monitor.apply(Self.event("a", engineStarted()), at: at(0), connection: 1)
        monitor.apply(Self.event("a", engineStarted()), at: at(1), connection: 2)
        monitor.connectionClosed(1)
        #expect(monitor.pairs[Self.key("a")]?.isUp(at: at(2)) == true)
        monitor.connectionClosed(2)
        #expect(monitor.pairs[Self.key("a")]?.isUp(at: at(2)) == false)
    }

    // MARK: Rows

    @Test("rows are ordered by engine name in byte order, then private, shared, public")
    func rowOrder() {
        var monitor = Monitor()
        for (engine, database) in [
            ("notes", Database.public), ("Zeta", .private), ("notes", .private), ("alpha", .shared), ("notes", .shared), ("alpha", .private),
        ] {
            monitor.apply(Self.event(engine, database, .heartbeat), at: at(0))
        }
        let rows = monitor.rows(at: at(1))
        #expect(rows.map { "\($0.key)" } == ["Zeta/private", "alpha/private", "alpha/shared", "notes/private", "notes/shared", "notes/public"])
        let filtered = monitor.rows(at: at(1), engine: name("notes"))
        #expect(filtered.map(\.key.database) == [.private, .shared, .public])
        #expect(monitor.rows(at: at(1), engine: name("nobody")).isEmpty)
    }

    // MARK: Changes

    @Test("changes(at:): the first verdict, then nothing until something changes")
    func firstVerdict() {
        var monitor = Monitor()
        monitor.apply(Self.event(engineStarted()), at: at(0))
        let first = monitor.changes(at: at(0))
        #expect(first.count == 1)
        #expect(first.first?.kind == .summaryChanged(from: nil))
        #expect(first.first?.evaluation.summary == .notStarted)
        #expect(first.first?.key == notesKey)
        #expect(monitor.changes(at: at(0)).isEmpty)
        #expect(monitor.changes(at: at(1)).isEmpty)
    }

    @Test("changes(at:): a healthy engine's cycles are no change of health; with reportsCycles they are, marked so")
    func summaryChange() {
        var monitor = Monitor()
        monitor.apply(Self.event(engineStarted()), at: at(0))
        _ = monitor.changes(at: at(0))
        monitor.apply(Self.event(.willFetchChanges), at: at(1))
        #expect(monitor.changes(at: at(1)).isEmpty)

        var verbose = Monitor(configuration: MonitorConfiguration(reportsCycles: true))
        verbose.apply(Self.event(engineStarted()), at: at(0))
        _ = verbose.changes(at: at(0))
        verbose.apply(Self.event(.willFetchChanges), at: at(1))
        let changes = verbose.changes(at: at(1))
        #expect(changes.map(\.kind) == [.summaryChanged(from: .notStarted)])
        #expect(changes.first?.evaluation.summary == .inProgress)
        #expect(changes.first?.isHealthChange == false)
        #expect(changes.first?.failedPhase == nil)
    }

    @Test(
        "changes: one entry when first seen, then one per change of health",
        arguments: [
            // (summaries in turn, the changes of health expected)
            ([Summary.notStarted, .inProgress, .succeeded, .inProgress, .succeeded], [Summary?.none]),
            ([.inProgress, .error, .error, .inProgress], [nil, .inProgress, .error]),
            ([.succeeded, .stalled, .succeeded, .retrying, .retrying, .succeeded], [nil, .succeeded, .stalled, .succeeded, .retrying]),
        ])
    func healthChanges(summaries: [Summary], previousOfEachChange: [Summary?]) {
        var previous: Summary? = nil
        var reported: [Summary?] = []
        for summary in summaries {
            if previous.map({ !$0.hasSameHealth(as: summary) }) ?? true { reported.append(previous) }
            previous = summary
        }
        #expect(reported == previousOfEachChange)
    }

    @Test("apply(changes:): a healthy engine syncing every second is reported once")
    func quietWhenHealthy() {
        var monitor = Monitor()
        var changes: [StatusChange] = []
        for second in stride(from: Int64(0), to: 600, by: 2) {
            for (offset, payload) in [(0, EventPayload.willFetchChanges), (0, .didFetchChanges), (1, .willSendChanges), (1, .didSendChanges)] {
                monitor.apply(Self.event(payload), at: at(second + Int64(offset)), connection: nil, now: at(second + Int64(offset)), changes: &changes)
            }
            changes += monitor.changes(at: at(second + 1))
        }
        #expect(changes.map(\.kind) == [.summaryChanged(from: nil)])
    }

    @Test("apply(changes:): a failure that appears and clears inside one batch is still reported")
    func failureBetweenTicks() {
        var monitor = Monitor()
        var changes: [StatusChange] = []
        let batch: [EventPayload] = [
            .willSendChanges, .didSendChanges,
            .willSendChanges, sentRecords(saved: 0, deleted: 0, err(.quotaExceeded)), .didSendChanges,
            .willSendChanges, .didSendChanges,
        ]
        for payload in batch { monitor.apply(Self.event(payload), at: at(1), connection: nil, now: at(1), changes: &changes) }
        #expect(changes.map(\.kind) == [.summaryChanged(from: nil), .summaryChanged(from: .inProgress), .summaryChanged(from: .error)])
        #expect(changes[1].evaluation.summary == .error)
        #expect(changes[1].failedPhase?.error == actionable(.quotaExceeded))
        #expect(changes[2].evaluation.summary == .succeeded)
    }

    @Test("apply(changes:): a stall that fired since the last tick and that the event clears is still reported")
    func stallBetweenTicks() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        var changes: [StatusChange] = []
        monitor.apply(Self.event(.willFetchChanges), at: at(0), connection: nil, now: at(0), changes: &changes)
        #expect(monitor.changes(at: at(99)).isEmpty)
        // No tick between 99 s and 100.5 s: the progress event finds the stall and clears it.
        let time = Timestamp(microseconds: at(100).microseconds + 500_000)
        monitor.apply(Self.event(.fetchedDatabaseChanges(modifications: 1, deletions: 0)), at: time, connection: nil, now: time, changes: &changes)
        #expect(
            changes.map(\.kind) == [
                .summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress),
                .stallCleared(.noProgress), .summaryChanged(from: .stalled),
            ]
        )
    }

    @Test("changes(at:): a stall raised and cleared, with the summary moving to and from stalled")
    func stallRaisedAndCleared() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        monitor.apply(Self.event(.willFetchChanges), at: at(0))
        #expect(monitor.changes(at: at(0)).map(\.kind) == [.summaryChanged(from: nil)])
        #expect(monitor.changes(at: justBefore(100)).isEmpty)

        let raised = monitor.changes(at: at(100))
        #expect(raised.count == 2)
        #expect(raised.contains { $0.kind == .stallRaised(.noProgress) })
        #expect(raised.contains { $0.kind == .summaryChanged(from: .inProgress) })
        #expect(raised.allSatisfy { $0.evaluation.summary == .stalled && Array($0.evaluation.stalls) == [.noProgress] })
        #expect(monitor.changes(at: at(150)).isEmpty)

        monitor.apply(Self.event(.fetchedDatabaseChanges(modifications: 1, deletions: 0)), at: at(160))
        let cleared = monitor.changes(at: at(160))
        #expect(cleared.count == 2)
        #expect(cleared.contains { $0.kind == .stallCleared(.noProgress) })
        #expect(cleared.contains { $0.kind == .summaryChanged(from: .stalled) })
        #expect(cleared.allSatisfy { $0.evaluation.summary == .inProgress && $0.evaluation.stalls.isEmpty })
    }

    @Test("changes(at:): a second stall while already stalled raises it without a summary change")
    func secondStall() {
        let thresholds = StallThresholds(notSyncing: .zero, noProgress: span(100), pendingNotDraining: span(200), retryLoop: .zero, noRecentImport: .zero)
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: thresholds))
        monitor.apply(Self.event(.willSendChanges), at: at(0))
        monitor.apply(Self.event(pending(1, 0)), at: at(0))
        _ = monitor.changes(at: at(0))
        _ = monitor.changes(at: at(100))
        let second = monitor.changes(at: at(200))
        #expect(second.map(\.kind) == [.stallRaised(.pendingNotDraining)])
        #expect(Array(second.first?.evaluation.stalls ?? StallSet()) == [.noProgress, .pendingNotDraining])
    }

    @Test("changes(at:): an error names the failed phase and its code")
    func failedPhase() {
        var monitor = Monitor()
        monitor.apply(Self.event(.willSendChanges), at: at(0))
        monitor.apply(Self.event(sentRecords(saved: 0, deleted: 0, err(.quotaExceeded))), at: at(1))
        monitor.apply(Self.event(.didSendChanges), at: at(2))
        let changes = monitor.changes(at: at(2))
        #expect(changes.map(\.kind) == [.summaryChanged(from: nil)])
        #expect(changes.first?.evaluation.summary == .error)
        #expect(changes.first?.failedPhase?.phase == .export)
        #expect(changes.first?.failedPhase?.error == actionable(.quotaExceeded))
    }

    @Test("changes(at:) covers every pair, ordered by key; changes(of:) only one")
    func severalPairs() {
        var monitor = Monitor()
        monitor.apply(Self.event("b", .willFetchChanges), at: at(0))
        monitor.apply(Self.event("a", .willSendChanges), at: at(0))
        let changes = monitor.changes(at: at(0))
        #expect(changes.map(\.key) == [Self.key("a"), Self.key("b")])
        monitor.apply(Self.event("a", .error(phase: .export, error: err(.quotaExceeded))), at: at(1))
        monitor.apply(Self.event("a", .didSendChanges), at: at(1))
        monitor.apply(Self.event("b", .didFetchChanges), at: at(1))
        monitor.apply(Self.event("b", .willFetchChanges), at: at(1))
        monitor.apply(Self.event("b", .error(phase: .import, error: err(.zoneNotFound))), at: at(1))
        monitor.apply(Self.event("b", .didFetchChanges), at: at(1))
        let onlyA = monitor.changes(of: Self.key("a"), at: at(1))
        #expect(onlyA.map(\.key) == [Self.key("a")])
        #expect(onlyA.map(\.kind) == [.summaryChanged(from: .inProgress)])
        #expect(monitor.changes(of: Self.key("a"), at: at(1)).isEmpty)
        #expect(monitor.changes(of: Self.key("nobody"), at: at(1)).isEmpty)
        #expect(monitor.changes(at: at(1)).map(\.key) == [Self.key("b")])
    }
}
