import SyncmonCore
import Testing

/// Events that arrive long after the times they state (a client's queue sent after a
/// reconnect, a recording piped into the socket): the looks around each one judge the pair at
/// the times the events state, as replay does, and never before the pair's last judgement; the
/// evaluation's looks judge it at the daemon's time (docs/protocol.md#time).
@Suite("Late events")
struct LateEventTests {
    /// One step: an event stated at `stated` seconds and received at `received`, or the
    /// evaluation's look at the daemon's time (`Monitor.changes(at:)`).
    enum Step {
        case event(EventPayload, stated: Int64, received: Int64)
        case look(Int64)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let steps: [Step]
        let expected: [StatusChange.Kind]
        var testDescription: String { self.name }
    }

    /// A fetch and a send, each a second long, stated at `start` and received an hour later.
    static func cycles(from start: Int64, count: Int) -> [Step] {
        (0..<Int64(count)).flatMap { cycle -> [Step] in
            let time = start + cycle * 4
            return [
                .event(.willFetchChanges, stated: time, received: 3600 + cycle), .event(.didFetchChanges, stated: time + 1, received: 3600 + cycle),
                .event(.willSendChanges, stated: time + 2, received: 3600 + cycle), .event(.didSendChanges, stated: time + 3, received: 3600 + cycle),
            ]
        }
    }

    static let cases: [Case] = [
        Case(
            name: "an hour-old backlog of quick cycles raises no stall between a start and its end",
            steps: Self.cycles(from: 0, count: 5) + [.look(3605)],
            expected: [.summaryChanged(from: nil)]),
        Case(
            name: "a backlog that ends in an open phase is stalled at the next look, at the daemon's time",
            steps: Self.cycles(from: 0, count: 2) + [.event(.willFetchChanges, stated: 8, received: 3602), .look(3603)],
            expected: [.summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress)]),
        Case(
            name: "a real gap inside the backlog is a stall, judged at the times the events state",
            steps: [
                .event(.willFetchChanges, stated: 0, received: 3600),
                .event(.fetchedDatabaseChanges(modifications: 1, deletions: 0), stated: 150, received: 3600),
                .event(.didFetchChanges, stated: 151, received: 3600), .look(3601),
            ],
            expected: [
                .summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress), .stallCleared(.noProgress),
                .summaryChanged(from: .stalled),
            ]),
        Case(
            name: "the look at the daemon's time waits a second after a late event: the backlog's next piece comes first",
            steps: [
                .event(.willFetchChanges, stated: 0, received: 3600), .look(3600), .event(.didFetchChanges, stated: 1, received: 3600),
                .event(.willSendChanges, stated: 2, received: 3600), .look(3600), .event(.didSendChanges, stated: 3, received: 3600), .look(3601),
                .look(3700),
            ],
            expected: [.summaryChanged(from: nil)]),
        Case(
            name: "a backlog cut off in an open phase is stalled a second after its last event",
            steps: [
                .event(.willFetchChanges, stated: 0, received: 3600), .look(3600), .event(.didFetchChanges, stated: 1, received: 3600),
                .event(.willSendChanges, stated: 2, received: 3600), .look(3600), .look(3601),
            ],
            expected: [.summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress)]),
        Case(
            name: "a client's queue sent after its engineStarted greeting: no phase stuck since before the start",
            steps: [
                .event(engineStarted(), stated: 3600, received: 3600),
                .event(.accountStatus(.available), stated: 3600, received: 3600),
            ] + Self.cycles(from: 0, count: 3) + [.look(3602), .look(3700)],
            expected: [.summaryChanged(from: nil)]),
        Case(
            name: "a late event does not judge a stalled pair before its last look: no false clear",
            steps: [
                .event(.willFetchChanges, stated: 0, received: 0), .look(100), .event(.heartbeat, stated: 50, received: 101), .look(102),
            ],
            expected: [.summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress)]),
        Case(
            name: "events on time are judged when they come, as before",
            steps: [.event(.willFetchChanges, stated: 0, received: 0), .event(.didFetchChanges, stated: 150, received: 150)],
            expected: [
                .summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress), .stallCleared(.noProgress),
                .summaryChanged(from: .stalled),
            ]),
    ]

    @Test("late events are judged at the times they state", arguments: Self.cases)
    func judgedAtStatedTimes(_ testCase: Case) {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        var changes: [StatusChange] = []
        for step in testCase.steps {
            switch step {
            case .event(let payload, let stated, let received):
                let event = Event(engine: notes, database: .private, payload: payload)
                monitor.apply(event, at: at(stated), connection: nil, now: at(received), changes: &changes)
            case .look(let second):
                changes += monitor.changes(at: at(second))
            }
        }
        #expect(changes.map(\.kind) == testCase.expected)
    }

    @Test("a change a late event makes goes into the history at the daemon's time")
    func historyAtDaemonTime() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        var changes: [StatusChange] = []
        let late: [(EventPayload, stated: Int64, received: Int64)] = [
            (.willSendChanges, 0, 3600), (sentRecords(saved: 0, deleted: 0, err(.quotaExceeded)), 1, 3601), (.didSendChanges, 2, 3601),
        ]
        for (payload, stated, received) in late {
            monitor.apply(Event(engine: notes, database: .private, payload: payload), at: at(stated), connection: nil, now: at(received), changes: &changes)
        }
        #expect(changes.map(\.evaluation.summary) == [.inProgress, .error])
        #expect(monitor.history(of: notesKey)?.changes.map(\.time) == [at(3600), at(3601)])
    }

    @Test("an engine's restart starts no stall clock but no_progress's: pending that never drains still fires")
    func restartKeepsOtherClocks() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.pendingNotDraining, 900)))
        var changes: [StatusChange] = []
        for (payload, second) in [(engineStarted(), Int64(0)), (pending(1, 0), 0), (engineStarted(), 600), (pending(1, 0), 600)] {
            monitor.apply(Event(engine: notes, database: .private, payload: payload), at: at(second), connection: nil, now: at(second), changes: &changes)
        }
        #expect(monitor.changes(at: justBefore(900)).isEmpty)
        #expect(monitor.changes(at: at(900)).map(\.kind).contains(.stallRaised(.pendingNotDraining)))
    }

    @Test("an event stamped under a second before it is read is on time: judged at the daemon's time")
    func onTimeWithinASecond() {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noProgress, 100)))
        var changes: [StatusChange] = []
        monitor.apply(Event(engine: notes, database: .private, payload: .willFetchChanges), at: at(0), connection: nil, now: at(0), changes: &changes)
        // Judged at its own time the phase would be a microsecond short of its threshold.
        let progress = Event(engine: notes, database: .private, payload: .fetchedDatabaseChanges(modifications: 1, deletions: 0))
        monitor.apply(progress, at: justBefore(100), connection: nil, now: at(100), changes: &changes)
        #expect(
            changes.map(\.kind) == [
                .summaryChanged(from: nil), .stallRaised(.noProgress), .summaryChanged(from: .inProgress), .stallCleared(.noProgress),
                .summaryChanged(from: .stalled),
            ])
    }
}
