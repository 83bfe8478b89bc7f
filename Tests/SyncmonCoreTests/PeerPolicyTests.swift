import SyncmonCore
import Testing

/// `allowed-users` / `allowed-groups`: one service cannot report, or hide, another's sync.
@Suite("Peer policies")
struct PeerPolicyTests {
    static let payroll = name("payroll")
    static let policy = PeerPolicy(users: [1001], groups: [2000])

    @Test(
        "who may report for an engine with a policy, and for one without",
        arguments: [
            // (engine, uid, gid, applied)
            ("payroll", UInt32(1001), UInt32(100), true),  // an allowed user
            ("payroll", 1500, 2000, true),  // an allowed primary group
            ("payroll", 0, 0, true),  // root, always
            ("payroll", 1500, 100, false),  // anyone else
            ("notes", 1500, 100, true),  // an engine without a policy takes anyone
        ])
    func allowed(engine: String, user: UInt32, group: UInt32, applied: Bool) {
        var monitor = Monitor(configuration: MonitorConfiguration())
        monitor.configuration.peerPolicies = [Self.payroll: Self.policy]
        var changes: [StatusChange] = []
        let peer = PeerCredentials(user: user, group: group, process: 42)
        let outcome = monitor.apply(Event(engine: name(engine), payload: .heartbeat), at: at(0), connection: 1, peer: peer, now: at(0), changes: &changes)
        #expect((outcome == .applied) == applied)
        #expect(monitor.pairs.count == (applied ? 1 : 0), "a forbidden event creates no pair")
        #expect(monitor.rejectedCount(.forbidden) == (applied ? 0 : 1))
        if !applied { #expect(outcome == .rejected(Rejection(.forbidden, field: "engine"))) }
    }

    @Test("events without a peer (subscribe sources, replay) are trusted as configured")
    func noPeer() {
        var monitor = Monitor(configuration: MonitorConfiguration())
        monitor.configuration.peerPolicies = [Self.payroll: Self.policy]
        var changes: [StatusChange] = []
        let outcome = monitor.apply(Event(engine: Self.payroll, payload: .heartbeat), at: at(0), connection: nil, peer: nil, now: at(0), changes: &changes)
        #expect(outcome == .applied)
    }

    @Test("forbidden is a bounded rejection reason with its label")
    func label() {
        #expect(RejectionReason.forbidden.description == "forbidden")
        #expect(RejectionReason.allCases.map(\.description).contains("forbidden"))
    }
}
