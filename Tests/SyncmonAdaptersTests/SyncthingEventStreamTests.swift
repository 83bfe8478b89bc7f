import Foundation
import SyncmonAdapters
import SyncmonCore
import Testing

/// The long-poll side: event ids against `since`, liveness from answered polls, event times,
/// and bodies that do not decode (docs/syncthing.md, "For the I/O side").
@Suite("Syncthing adapter: event stream")
struct SyncthingEventStreamTests {
    struct IDCase: Sendable, CustomStringConvertible {
        var name: String
        /// Ids of the batch after `since` = 10.
        var ids: [Int]
        var needsSnapshot: Bool
        var notice: SyncthingNotice?
        var since: Int
        var description: String { self.name }
    }

    static let idCases: [IDCase] = [
        IDCase(name: "the next ids", ids: [11, 12], needsSnapshot: false, notice: nil, since: 12),
        IDCase(name: "an empty answer", ids: [], needsSnapshot: false, notice: nil, since: 10),
        IDCase(name: "one event lost before the batch", ids: [12, 13], needsSnapshot: true, notice: .eventsLost(since: 10, next: 12), since: 13),
        IDCase(name: "a gap inside the batch", ids: [11, 15], needsSnapshot: true, notice: .eventsLost(since: 11, next: 15), since: 15),
        IDCase(name: "ids start again", ids: [1, 2], needsSnapshot: true, notice: .eventIDsRestarted(since: 10, next: 1), since: 10),
        IDCase(name: "the same id again", ids: [10], needsSnapshot: true, notice: .eventIDsRestarted(since: 10, next: 10), since: 10),
    ]

    @Test("ids must follow since", arguments: Self.idCases)
    func ids(_ testCase: IDCase) throws {
        var syncthing = FakeSyncthing()
        syncthing.latestEventID = 10
        var (adapter, _) = try started(syncthing)
        let batch = testCase.ids.map { FakeEvent(id: $0, type: "StateChanged", time: 1, data: ["folder": "shared", "from": "idle", "to": "scanning"]) }
        let output = try adapter.ingest(events: body(batch), at: t(1))
        #expect(adapter.needsSnapshot == testCase.needsSnapshot)
        #expect(output.notices == (testCase.notice.map { [$0] } ?? []))
        #expect(adapter.since == testCase.since)
        #expect(adapter.eventsPath.hasPrefix("/rest/events?since=\(testCase.since)&timeout=60&events="))
        // After ids went back, the next snapshot reads the latest id again.
        if case .eventIDsRestarted = testCase.notice {
            #expect(try syncthing.snapshot(for: adapter).requests.contains(.latestEvent))
        }
    }

    @Test("heartbeats promise (timeout + 10 s) / 3", arguments: [(60, 23_333_333), (30, 13_333_333), (1, 3_666_666)])
    func heartbeatInterval(_ timeout: Int, _ microseconds: Int64) {
        let adapter = SyncthingAdapter(engine: InlineName("st")!, pollTimeoutSeconds: timeout)
        #expect(adapter.heartbeatInterval == TimeSpan(microseconds: microseconds))
        #expect(adapter.pollDeadline == .seconds(Int64(timeout) + 10))
    }

    @Test("every answered poll keeps each running pair up; a pair is down once a poll goes unanswered for timeout + 10 s")
    func liveness() throws {
        var syncthing = FakeSyncthing()
        syncthing.folders.append(FakeSyncthing.Folder(id: "paused", paused: true))
        var (adapter, output) = try started(syncthing)
        var fed = Fed()
        fed.feed(output)
        // Idle: an empty answer at each poll timeout.
        for answer in stride(from: 60.0, through: 300, by: 60) {
            let answered = try adapter.ingest(events: Array("[]".utf8), at: t(answer))
            #expect(answered.events.map(\.payload) == [.heartbeat], "only running pairs get heartbeats")
            #expect(answered.events.first?.time == t(answer))
            fed.feed(answered)
        }
        #expect(fed.summary(at: 369.9) == .succeeded)
        #expect(fed.summary(at: 370) == .engineDown)
        #expect(fed.summary("paused", at: 370) == .stopped)
        // The next answer (after the snapshot the failed poll asks for) brings it back.
        adapter.pollFailed()
        fed.feed(adapter.ingest(snapshot: try syncthing.snapshot(for: adapter).snapshot, at: t(380)))
        #expect(fed.summary(at: 380) == .succeeded)
    }

    @Test("a refused connection: the source closes its connection and the reported pairs are down at once")
    func refused() throws {
        let (adapter, output) = try started()
        var fed = Fed()
        fed.feed(output)
        #expect(adapter.reportedPairs == [PairKey(engine: InlineName("st")!, database: sharedFolder)])
        fed.monitor.connectionClosed(1)
        #expect(fed.summary(at: 1) == .engineDown)
    }

    @Test("a pair with an event of its own in the batch gets no heartbeat besides")
    func noDoubleHeartbeat() throws {
        var syncthing = FakeSyncthing()
        syncthing.folders.append(FakeSyncthing.Folder(id: "other"))
        var (adapter, _) = try started(syncthing)
        let output = try adapter.ingest(
            events: body(
                events(from: 1, at: 9.9, [folderSummary(state: "idle", need: 0, folder: "other"), ("DownloadProgress", ["shared": ["f": ["bytesDone": 1]]])])),
            at: t(10))
        // `other` had a summary (no change to say, so nothing) and gets a heartbeat; `shared` too.
        #expect(output.events.map { "\($0.database) \($0.payload.type)" } == ["other heartbeat", "shared heartbeat"])
        let busy = try adapter.ingest(events: body(events(from: 3, at: 10.5, [stateChanged("idle", "sync-preparing")])), at: t(10.5))
        #expect(busy.events.map { "\($0.database) \($0.payload.type)" } == ["shared willFetchChanges"])
    }

    struct TimeCase: Sendable, CustomStringConvertible {
        var name: String
        /// The event's own time, seconds; `nil`: no time.
        var stated: Double?
        var answeredAt: Double
        var expected: Double
        var description: String { self.name }
    }

    static let timeCases: [TimeCase] = [
        TimeCase(name: "Syncthing's own time", stated: 9.5, answeredAt: 10, expected: 9.5),
        TimeCase(name: "a clock ahead of ours: now", stated: 70, answeredAt: 10, expected: 10),
        TimeCase(name: "before the previous event: the previous event's time", stated: 2, answeredAt: 10, expected: 5),
        TimeCase(name: "no time: now", stated: nil, answeredAt: 10, expected: 10),
    ]

    @Test("event times stay between the previous event's and now", arguments: Self.timeCases)
    func times(_ testCase: TimeCase) throws {
        var (adapter, _) = try started()
        _ = try adapter.ingest(events: body(events(from: 1, at: 5, [stateChanged("idle", "scanning")])), at: t(5))
        var event = FakeEvent(id: 2, type: "StateChanged", time: testCase.stated ?? 0, data: ["folder": "shared", "from": "scanning", "to": "sync-preparing"])
            .json
        if testCase.stated == nil { event["time"] = nil }
        let output = try adapter.ingest(events: Array(try JSONSerialization.data(withJSONObject: [event])), at: t(testCase.answeredAt))
        #expect(output.events.first { $0.payload == .willFetchChanges }?.time == t(testCase.expected))
    }

    @Test("a body that is not an event array throws and asks for a snapshot; odd events are skipped")
    func badBodies() throws {
        var (adapter, _) = try started()
        #expect(throws: SyncthingAdapterError.self) { try adapter.ingest(events: Array("".utf8), at: t(1)) }
        #expect(adapter.needsSnapshot)
        (adapter, _) = try started()
        let batch = [
            FakeEvent(id: 1, type: "FolderSummary", time: 1, data: ["folder": "shared"]),
            FakeEvent(id: 2, type: "Starting", time: 1, data: ["home": "/x"]),
            FakeEvent(id: 3, type: "StateChanged", time: 1, data: ["folder": "shared", "from": "idle", "to": "sync-preparing"]),
        ]
        let output = try adapter.ingest(events: body(batch), at: t(1))
        #expect(output.notices == [.malformedEvent(id: 1, type: "FolderSummary")])
        #expect(output.events.map(\.payload) == [.willFetchChanges])
        #expect(adapter.since == 3)
        #expect(!adapter.needsSnapshot)
    }
}
