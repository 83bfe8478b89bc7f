import SyncmonCore
import Testing

/// A pair whose source cannot see its engine at all (docs/systemd-units.md: a `unit:` source's unit that
/// systemd does not know): it exists, reads `unknown` with no stall whatever it holds, and once
/// the engine is seen again it is a normal pair whose stall clocks start from then.
@Suite("Unknown pairs")
struct UnknownPairTests {
    static let key = notesKey

    @Test(
        "unknown wins over what the pair holds, fires no stall, and the pair is normal again once seen",
        arguments: [
            ("no events before", [EventPayload](), Summary.notStarted),
            ("an export succeeded before", [container(.export, id: "a", started: 0, ended: 1, succeeded: true)], .succeeded),
            ("stopped before", [.engineStopped], .stopped),
        ]
    )
    func unknownThenSeen(_ name: String, before: [EventPayload], after: Summary) {
        var monitor = Monitor(configuration: MonitorConfiguration(thresholds: only(.noRecentExport, 5)))
        for payload in before { monitor.apply(Event(engine: notes, time: at(1), payload: payload), at: at(1)) }
        let created = monitor.setUnknown(Self.key, because: "unit not-found", at: at(2))
        #expect(created, "\(name)")
        #expect(monitor.evaluate(Self.key, at: at(100))?.summary == .unknown, "\(name)")
        #expect(monitor.evaluate(Self.key, at: at(100))?.stalls.isEmpty == true, "\(name)")
        #expect(monitor.rows(at: at(100)).map(\.summary) == [.unknown], "\(name)")
        // Not running as far as anyone can tell, and the row says why.
        let row = monitor.rows(at: at(100))[0]
        #expect(!row.up, "\(name)")
        #expect(row.unknownReason == "unit not-found", "\(name)")
        #expect(StatusDetail.text(for: row, now: at(100)) == "unit not-found", "\(name)")
        let seen = monitor.setUnknown(Self.key, because: nil, at: at(100))
        #expect(seen, "\(name)")
        #expect(monitor.evaluate(Self.key, at: at(100))?.summary == after, "\(name)")
        // The full T from the moment it was seen again.
        #expect(monitor.evaluate(Self.key, at: at(104))?.stalls.contains(StallReason.noRecentExport) == false, "\(name)")
    }

    @Test("an unknown pair is reported once as it appears; clearing an absent pair creates nothing")
    func reported() {
        var monitor = Monitor()
        let cleared = monitor.setUnknown(Self.key, because: nil, at: at(0))
        #expect(cleared)
        #expect(monitor.rows(at: at(0)).isEmpty)
        monitor.setUnknown(Self.key, because: "unit masked", at: at(1))
        #expect(monitor.changes(at: at(1)).map(\.evaluation.summary) == [.unknown])
        monitor.setUnknown(Self.key, because: "unit masked", at: at(2))
        #expect(monitor.changes(at: at(2)).isEmpty)
    }
}
