import Foundation
import SyncmonCore
import Testing

/// A pair's history of health changes (docs/operations.md#history): bounded by age (7 days)
/// and by count (500, the oldest going first), time passed in.
@Suite("Pair history")
struct PairHistoryTests {
    static let day: Int64 = 24 * 3_600

    static func change(_ seconds: Int64, to summary: Summary = .error) -> HealthChange {
        HealthChange(time: at(seconds), from: .succeeded, to: summary)
    }

    @Test(
        "appending keeps the last 7 days as of the newest change",
        arguments: [
            ([0, 60, 120], [0, 60, 120]),
            // Exactly 7 days old is still kept; a microsecond more is not.
            ([0, 7 * day], [0, 7 * day]),
            ([0, 60, 7 * day + 1], [60, 7 * day + 1]),
            ([0, 60, 30 * day], [30 * day]),
            // A step back of the host's clock: an older time after a newer one is judged by its own age.
            ([8 * day, 0, 9 * day], [8 * day, 9 * day]),
        ] as [([Int64], [Int64])])
    func appendTrimsByAge(times: [Int64], kept: [Int64]) {
        var history = PairHistory()
        for time in times { history.append(Self.change(time)) }
        #expect(history.changes.map(\.time) == kept.map(at))
    }

    @Test("at most 500 changes a pair, the oldest going first", arguments: [1, 499, 500, 501, 1_200])
    func appendTrimsByCount(count: Int) {
        var history = PairHistory()
        for index in 0..<count { history.append(Self.change(Int64(index))) }
        #expect(history.changes.count == min(count, PairHistory.maximumChanges))
        #expect(history.changes.last?.time == at(Int64(count - 1)))
        #expect(history.changes.first?.time == at(Int64(max(0, count - PairHistory.maximumChanges))))
    }

    @Test(
        "read at a later time: only what is kept then, from `since` on",
        arguments: [
            (nil, 8 * day, [2 * day, 5 * day]),
            (nil, 3 * day, [0, 2 * day, 5 * day]),
            (3 * day, 3 * day, [5 * day]),
            // `since` before the 7 days changes nothing.
            (-30 * day, 8 * day, [2 * day, 5 * day]),
            (nil, 13 * day, []),
        ] as [(Int64?, Int64, [Int64])])
    func readAtLaterTime(since: Int64?, now: Int64, expected: [Int64]) {
        let history = PairHistory([Self.change(0), Self.change(2 * Self.day), Self.change(5 * Self.day)])
        #expect(history.changes(since: since.map(at), at: at(now)).map(\.time) == expected.map(at))
        #expect(history.trimmed(at: at(now)).changes.map(\.time) == history.changes(since: nil, at: at(now)).map(\.time))
    }

    @Test("stored as the bare list and read back the same, every field")
    func codableRoundTrip() throws {
        let history = PairHistory([
            HealthChange(time: at(0), from: nil, to: .notStarted),
            HealthChange(time: at(10), from: .notStarted, to: .error, phase: .export, code: "quotaExceeded", message: "Storage \"full\"\n"),
            HealthChange(time: at(20), from: .error, to: .stalled, reason: "no_progress,retry_loop"),
        ])
        let data = try JSONEncoder().encode(history)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("[{"))
        #expect(try JSONDecoder().decode(PairHistory.self, from: data) == history)
    }
}

/// The monitor records a change of health exactly where it reports one for the journal: the
/// first verdict, each move between health states (`not_started`, `in_progress` and
/// `succeeded` are one, `ok`), with why; a restart adds nothing; `forget` drops the history.
@Suite("Health history in the monitor")
struct MonitorHistoryTests {
    /// What happens to `notes/private`: an event at a time, or a look at a time.
    enum Step: Sendable {
        case event(Int64, EventPayload)
        case look(Int64)
    }

    static let quota = SyncError(code: ErrorCode(.quotaExceeded), message: "Storage full")
    static let busy = SyncError(code: ErrorCode(.zoneBusy))

    static func run(_ steps: [Step], thresholds: StallThresholds = noThresholds) -> Monitor {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: thresholds))
        for step in steps {
            switch step {
            case .event(let time, let payload):
                var changes: [StatusChange] = []
                monitor.apply(Event(engine: notes, time: at(time), payload: payload), at: at(time), connection: nil, now: at(time), changes: &changes)
            case .look(let time):
                _ = monitor.changes(at: at(time))
            }
        }
        return monitor
    }

    /// A change as one line: `from → to  why`.
    static func line(_ change: HealthChange) -> String {
        let why = [change.phase?.description, change.code, change.message, change.reason].compactMap { $0 }.joined(separator: " ")
        return "\(change.from?.description ?? "new") → \(change.to)" + (why.isEmpty ? "" : "  " + why)
    }

    static func lines(_ monitor: Monitor) -> [String] {
        (monitor.histories[notesKey]?.changes ?? []).map(Self.line)
    }

    @Test(
        "what is recorded",
        arguments: [
            (
                "a failure then a recovery",
                [
                    Step.event(0, engineStarted()),
                    .event(20, container(.export, id: "a", started: 10, ended: 20, succeeded: false, error: quota)),
                    .event(40, container(.export, id: "b", started: 30, ended: 40, succeeded: true)),
                ],
                ["new → not_started", "not_started → error  export quotaExceeded Storage full", "error → succeeded"]
            ),
            (
                "a healthy engine's cycles are no change",
                [
                    Step.event(0, engineStarted()),
                    .event(10, container(.import, id: "a", started: 10)),
                    .event(20, container(.import, id: "a", started: 10, ended: 20, succeeded: true)),
                    .event(30, container(.export, id: "b", started: 30)),
                ],
                ["new → not_started"]
            ),
            (
                "a transient failure is retrying, with its code",
                [Step.event(0, engineStarted()), .event(10, container(.import, id: "a", started: 5, ended: 10, succeeded: false, error: busy))],
                ["new → not_started", "not_started → retrying  import zoneBusy"]
            ),
            (
                "a stall raised by time alone, then cleared",
                [
                    Step.event(0, container(.import, id: "a", started: 0)), .look(59), .look(60),
                    .event(70, container(.import, id: "a", started: 0, ended: 70, succeeded: true)),
                ],
                ["new → in_progress", "in_progress → stalled  no_progress", "stalled → succeeded"]
            ),
        ] as [(String, [Step], [String])])
    func recorded(scenario: String, steps: [Step], expected: [String]) {
        let monitor = Self.run(steps, thresholds: only(.noProgress, 60))
        #expect(Self.lines(monitor) == expected, "\(scenario)")
    }

    @Test("the change's time is the moment the daemon saw it")
    func times() {
        let monitor = Self.run([.event(0, container(.import, id: "a", started: 0)), .look(30), .look(65)], thresholds: only(.noProgress, 60))
        #expect(monitor.histories[notesKey]?.changes.map(\.time) == [at(0), at(65)])
    }

    @Test("a restart restores the history and adds no change; a real change after it is recorded", arguments: [0, 3_600])
    func restart(downtime: Int64) throws {
        let before = Self.run([
            .event(0, engineStarted()),
            .event(20, container(.export, id: "a", started: 10, ended: 20, succeeded: false, error: Self.quota)),
        ])
        // What the state file keeps: the pair and its history, as stored.
        let state = try #require(before.pairs[notesKey])
        let history = try JSONDecoder().decode(PairHistory.self, from: JSONEncoder().encode(try #require(before.histories[notesKey])))
        var after = Monitor()
        after.restore(notesKey, state, history: history, savedAt: at(30), start: at(30 + downtime))
        #expect(after.changes(at: at(30 + downtime)).isEmpty)
        #expect(Self.lines(after) == Self.lines(before))
        var changes: [StatusChange] = []
        let time = at(40 + downtime)
        let success = Event(engine: notes, time: time, payload: container(.export, id: "b", started: 35 + downtime, ended: 40 + downtime, succeeded: true))
        after.apply(success, at: time, connection: nil, now: time, changes: &changes)
        #expect(Self.lines(after).last == "error → succeeded")
        #expect(Self.lines(after).count == 3)
    }

    @Test("a history a week old is not restored")
    func restoreTrims() throws {
        let before = Self.run([.event(0, engineStarted())])
        var after = Monitor()
        after.restore(
            notesKey, try #require(before.pairs[notesKey]), history: try #require(before.histories[notesKey]), savedAt: at(10), start: at(8 * 24 * 3_600))
        #expect(after.histories[notesKey] == nil)
        #expect(after.pairs[notesKey] != nil)
    }

    @Test(
        "forget drops the history with the pair; it comes back new",
        arguments: [#"{"v":1,"type":"forget","engine":"notes"}"#, #"{"v":1,"type":"forget","engine":"notes","database":"private"}"#])
    func forget(line: String) throws {
        var monitor = Self.run([
            .event(0, engineStarted()), .event(20, container(.export, id: "a", started: 10, ended: 20, succeeded: false, error: Self.quota)),
        ])
        var changes: [StatusChange] = []
        #expect(monitor.apply(try #require(decode(line).event), at: at(30), connection: nil, now: at(30), changes: &changes) == .forgotten(1))
        #expect(monitor.histories[notesKey] == nil)
        #expect(monitor.history(at: at(30)).pairs.isEmpty)
        monitor.apply(Event(engine: notes, time: at(40), payload: engineStarted()), at: at(40), connection: nil, now: at(40), changes: &changes)
        #expect(Self.lines(monitor) == ["new → not_started"])
    }
}
