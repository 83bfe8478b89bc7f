import SyncmonCore
import Testing

/// A canary's place in the state model (docs/canary.md): its pair exists from the start,
/// reads `succeeded` while files cross as long as no engine reports, and `canary_late` is a
/// stall like the others — suppressed, and given the full T after every suppression.
@Suite("Canary pairs")
struct CanaryPairTests {
    static let key = notesKey

    static func status(late: Bool, lateAfter: Int64 = 20) -> CanaryStatus {
        CanaryStatus(
            host: CanaryHost("a")!, seq: 3,
            peers: [CanaryStatus.Peer(host: CanaryHost("b")!, seq: 9, lastMoved: at(1), roundTripSeconds: 1.5, late: late ? .notMoving : nil)],
            lateAfter: span(lateAfter))
    }

    @Test("a pair watched by its canary alone exists from the start and reads succeeded once a peer moves and acknowledges")
    func canaryAlone() throws {
        var monitor = Monitor()
        let created = monitor.setCanary(Self.key, Self.status(late: false), at: at(0))
        #expect(created)
        #expect(monitor.evaluate(Self.key, at: at(0))?.summary == .notStarted)
        let imported = monitor.canaryCycle(Self.key, .import, at: at(5))
        #expect(imported)
        let exported = monitor.canaryCycle(Self.key, .export, at: at(6))
        #expect(exported)
        let row = try #require(monitor.rows(at: at(7)).first)
        #expect(row.summary == .succeeded)
        #expect(row.importPhase == .succeeded(started: at(5), ended: at(5)))
        #expect(row.canary == Self.status(late: false))
    }

    @Test("once an engine reports on the pair, its phases are the engine's: canary moves no longer count")
    func engineTakesOver() {
        var monitor = Monitor()
        monitor.setCanary(Self.key, Self.status(late: false), at: at(0))
        monitor.apply(Event(engine: notes, time: at(1), payload: .willFetchChanges), at: at(1))
        let counted = monitor.canaryCycle(Self.key, .import, at: at(2))
        #expect(!counted)
        #expect(monitor.evaluate(Self.key, at: at(2))?.summary == .inProgress)
    }

    @Test("a late canary stalls its pair (canary_late), reported once, and clears when it is on time")
    func stalls() {
        var monitor = Monitor()
        monitor.apply(Event(engine: notes, time: at(0), payload: .didFetchChanges), at: at(0))
        _ = monitor.changes(at: at(0))
        monitor.setCanary(Self.key, Self.status(late: true), at: at(30))
        let raised = monitor.changes(at: at(30))
        #expect(raised.map(\.kind).contains(.stallRaised(.canaryLate)))
        #expect(monitor.evaluate(Self.key, at: at(30))?.summary == .stalled)
        monitor.setCanary(Self.key, Self.status(late: true), at: at(31))
        #expect(monitor.changes(at: at(31)).isEmpty)
        monitor.setCanary(Self.key, Self.status(late: false), at: at(32))
        #expect(monitor.changes(at: at(32)).map(\.kind).contains(.stallCleared(.canaryLate)))
    }

    @Test("never while the engine is down or offline, and not until T after the suppression ends")
    func suppressed() {
        var monitor = Monitor()
        monitor.apply(Event(engine: notes, time: at(0), payload: .networkStatus(available: false)), at: at(0))
        monitor.setCanary(Self.key, Self.status(late: true), at: at(30))
        #expect(monitor.evaluate(Self.key, at: at(30))?.stalls.isEmpty == true)
        #expect(monitor.evaluate(Self.key, at: at(30))?.summary == .noNetwork)
        monitor.apply(Event(engine: notes, time: at(40), payload: .networkStatus(available: true)), at: at(40))
        #expect(monitor.evaluate(Self.key, at: justBefore(60))?.stalls.isEmpty == true)
        #expect(monitor.evaluate(Self.key, at: at(60))?.stalls.contains(.canaryLate) == true)
        // The deadline is known ahead: the evaluation service wakes for it.
        _ = monitor.changes(at: at(41))
        #expect(monitor.nextLook == at(60))
    }

    @Test("the table and the Nagios line name the late peer")
    func namesLatePeer() throws {
        var monitor = Monitor()
        monitor.apply(Event(engine: notes, time: at(0), payload: .didFetchChanges), at: at(0))
        monitor.setCanary(Self.key, Self.status(late: true), at: at(30))
        let rows = monitor.rows(at: at(30))
        #expect(NagiosLine.render(rows: rows).contains("notes/private stalled (canary_late: b)"))
        #expect(StatusTable.render(rows: rows, now: at(30)).contains("canary_late: b"))
    }

    @Test("status JSON carries the canary object, and reads back")
    func statusDocument() throws {
        var monitor = Monitor()
        monitor.setCanary(Self.key, Self.status(late: true), at: at(0))
        let text = statusJSON(rows: monitor.rows(at: at(1)), now: at(1), pretty: false)
        #expect(text.contains(#""canary":{"#))
        #expect(text.contains(#""roundTripSeconds":1.5"#))
        #expect(text.contains(#""late":true"#))
        #expect(text.contains(#""lastMoved":"#))
    }

    @Test("canary_late has no global threshold flag; the metric state set lists it")
    func reasonSpelling() {
        #expect(StallReason("canary_late") == .canaryLate)
        #expect(!StallReason.thresholdReasons.contains(.canaryLate))
        #expect(StallThresholds.defaults[.canaryLate] == .zero)
    }
}
