import SyncmonCore
import Testing

/// `forget` lines (docs/protocol.md#forget): a pair, or every pair of an engine, leaves the
/// state; a peer the engine's policy does not allow is refused; the pair comes back if it
/// speaks again.
@Suite("Forget")
struct ForgetTests {
    static func monitor(policies: [InlineName: PeerPolicy] = [:]) -> Monitor {
        var configuration = MonitorConfiguration()
        configuration.peerPolicies = policies
        var monitor = Monitor(configuration: configuration)
        for (engine, database) in [("old", Database.private), ("old", .shared), ("keep", .private)] {
            monitor.apply(Event(engine: name(engine), database: database, payload: .engineStarted(heartbeatInterval: nil)), at: at(0), connection: 1)
        }
        monitor.connectionClosed(1)
        return monitor
    }

    static func forget(_ line: String, into monitor: inout Monitor, peer: PeerCredentials? = nil) throws -> Monitor.ApplyOutcome {
        let event = try #require(decode(line).event)
        var changes: [StatusChange] = []
        return monitor.apply(event, at: at(10), connection: 2, peer: peer, now: at(10), changes: &changes)
    }

    static func pairs(_ monitor: Monitor) -> [String] {
        monitor.rows(at: at(10)).map { "\($0.key.engine)/\($0.key.database)" }
    }

    @Test(
        "what a forget line removes",
        arguments: [
            (#"{"v":1,"type":"forget","engine":"old"}"#, 2, ["keep/private"]),
            (#"{"v":1,"type":"forget","engine":"old","database":"shared"}"#, 1, ["keep/private", "old/private"]),
            (#"{"v":1,"type":"forget","engine":"gone"}"#, 0, ["keep/private", "old/private", "old/shared"]),
            (#"{"v":1,"type":"forget","engine":"old","database":"other"}"#, 0, ["keep/private", "old/private", "old/shared"]),
        ])
    func removes(line: String, count: Int, left: [String]) throws {
        var monitor = Self.monitor()
        #expect(try Self.forget(line, into: &monitor) == .forgotten(count))
        #expect(Self.pairs(monitor) == left)
        // A forget never creates a pair, and nothing it did is waiting to be reported.
        #expect(monitor.changes(at: at(11)).allSatisfy { Self.pairs(monitor).contains("\($0.key.engine)/\($0.key.database)") })
    }

    @Test("a peer the engine's policy does not allow is refused `forbidden`; root and allowed peers are not")
    func peerPolicy() throws {
        let policies = [name("old"): PeerPolicy(users: [1000], groups: [])]
        let line = #"{"v":1,"type":"forget","engine":"old"}"#
        var monitor = Self.monitor(policies: policies)
        let stranger = PeerCredentials(user: 2000, group: 2000, process: 42)
        #expect(try Self.forget(line, into: &monitor, peer: stranger) == .rejected(Rejection(.forbidden, field: "engine")))
        #expect(monitor.rejectedCount(.forbidden) == 1)
        #expect(Self.pairs(monitor).count == 3)
        #expect(try Self.forget(line, into: &monitor, peer: PeerCredentials(user: 1000, group: 1000, process: 43)) == .forgotten(2))
        var other = Self.monitor(policies: policies)
        #expect(try Self.forget(line, into: &other, peer: PeerCredentials(user: 0, group: 0, process: 1)) == .forgotten(2))
    }

    @Test("a forgotten pair comes back, new, when its engine speaks again")
    func reappears() throws {
        var monitor = Self.monitor()
        _ = try Self.forget(#"{"v":1,"type":"forget","engine":"old","database":"private"}"#, into: &monitor)
        monitor.apply(Event(engine: name("old"), payload: .heartbeat), at: at(20))
        let row = try #require(monitor.rows(at: at(20)).first { $0.key == PairKey(engine: name("old"), database: .private) })
        #expect(row.summary != .engineDown)
        #expect(monitor.pairs[PairKey(engine: name("old"), database: .private)]?.firstEvent == at(20))
    }

    @Test("replay applies forget too")
    func replay() {
        var session = ReplaySession()
        let lines =
            [
                #"{"v":1,"type":"heartbeat","engine":"old","time":"2026-11-21T12:00:00Z"}"#,
                #"{"v":1,"type":"forget","engine":"old","time":"2026-11-21T12:00:01Z"}"#,
            ].joined(separator: "\n") + "\n"
        Array(lines.utf8).withUnsafeBytes { session.feed($0) }
        session.finish(fallbackTime: at(0))
        #expect(session.monitor.pairs.isEmpty)
    }
}
