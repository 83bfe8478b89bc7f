import Foundation
import SyncmonCore
import Testing

/// A notification route's decisions on a manual clock (docs/notifications.md): hold, group,
/// repeat, resolution, the rate limit, failed deliveries, `forget`, and the route's memory
/// across a restart. Each case is a timeline of summaries; the route is driven only at the
/// times it asks for (`nextWake`) and when a summary changes, as the daemon drives it.
@Suite("RouteNotification route")
struct NotificationRouteTests {
    /// One summary change: `seconds` after the base instant, `pair` is `summary`.
    struct Change: Sendable {
        var seconds: Int64
        var pair: String
        var summary: Summary
    }

    /// What a delivered notification was, as a line: `330 firing notes/private,photos/private`.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var policy = NotificationPolicy.defaults
        var changes: [Change]
        var until: Int64
        /// Deliveries that fail before one succeeds (per attempt, in order).
        var failures = 0
        var expected: [String]
        var testDescription: String { self.name }
    }

    static func c(_ seconds: Int64, _ pair: String, _ summary: Summary) -> Change { Change(seconds: seconds, pair: pair, summary: summary) }

    static func policy(_ change: (inout NotificationPolicy) -> Void) -> NotificationPolicy {
        var policy = NotificationPolicy.defaults
        change(&policy)
        return policy
    }

    /// A pair flapping between error and succeeded every 30 s for ten minutes.
    static let flapping = (0..<20).map { c(Int64($0) * 30, "notes/private", $0.isMultiple(of: 2) ? .error : .succeeded) }

    static let cases: [Case] = [
        Case(
            name: "an error held 5 min fires once, after the group's 30 s", changes: [c(0, "notes/private", .error)], until: 3_600,
            expected: ["330 firing notes/private"]),
        Case(
            name: "an error shorter than the hold sends nothing",
            changes: [c(0, "notes/private", .error), c(299, "notes/private", .succeeded)], until: 3_600, expected: []
        ),
        Case(name: "flapping every 30 s for 10 min sends nothing", changes: flapping, until: 3_600, expected: []),
        Case(
            name: "flapping with no hold resolves within the group: nobody was told, nothing is sent",
            policy: policy { $0.hold = .zero },
            changes: flapping, until: 3_600, expected: []
        ),
        Case(
            name: "flapping with no hold or group stops at the rate limit; flaps that ended are dropped",
            policy: policy {
                $0.hold = .zero
                $0.group = .zero
                $0.ratePerHour = 4
            },
            changes: flapping, until: 7_200,
            expected: ["0 firing notes/private", "30 resolved notes/private", "60 firing notes/private", "90 resolved notes/private"]
        ),
        Case(
            name: "fired, then recovered for the hold: resolved",
            changes: [c(0, "notes/private", .error), c(600, "notes/private", .succeeded)], until: 3_600,
            expected: ["330 firing notes/private", "930 resolved notes/private"]
        ),
        Case(
            name: "resolved not sent when resolved = no",
            policy: policy { $0.sendsResolved = false },
            changes: [c(0, "notes/private", .error), c(600, "notes/private", .succeeded)], until: 3_600, expected: ["330 firing notes/private"]
        ),
        Case(
            name: "back in the set before the hold: no resolution, no second firing",
            changes: [c(0, "notes/private", .error), c(600, "notes/private", .succeeded), c(700, "notes/private", .stalled)], until: 3_600,
            expected: ["330 firing notes/private"]
        ),
        Case(
            name: "a firing pair is sent again every repeat",
            policy: policy { $0.repeatInterval = .seconds(Int64(3_600)) },
            changes: [c(0, "notes/private", .error)], until: 8_000,
            expected: ["330 firing notes/private", "3930 firing notes/private (repeat)", "7530 firing notes/private (repeat)"]
        ),
        Case(
            name: "pairs firing within the group go out together",
            changes: [c(0, "notes/private", .error), c(20, "photos/private", .engineDown), c(100, "todo/private", .stalled)], until: 3_600,
            expected: ["330 firing notes/private,photos/private", "430 firing todo/private"]
        ),
        Case(
            name: "no_network is not in the default when",
            changes: [c(0, "notes/private", .noNetwork), c(0, "photos/private", .error)], until: 3_600, expected: ["330 firing photos/private"]
        ),
        Case(
            name: "engines globs choose the pairs",
            policy: policy { $0.engines = [PairPattern("photo?"), PairPattern("*/shared")] },
            changes: [c(0, "notes/private", .error), c(0, "photos/private", .error), c(0, "notes/shared", .error)], until: 3_600,
            expected: ["330 firing notes/shared,photos/private"]
        ),
        Case(
            name: "past the rate limit, pairs are folded into the next notification",
            policy: policy { $0.ratePerHour = 2 },
            changes: [c(0, "a/private", .error), c(100, "b/private", .error), c(200, "c/private", .error), c(300, "d/private", .error)],
            until: 7_200,
            expected: ["330 firing a/private", "430 firing b/private", "3930 firing c/private,d/private"]
        ),
        Case(
            name: "failed deliveries are retried after 10, 20, 40 s",
            changes: [c(0, "notes/private", .error)], until: 3_600, failures: 3, expected: ["400 firing notes/private"]
        ),
        Case(
            name: "a firing never delivered that resolves is dropped, and so is its resolution",
            changes: [c(0, "notes/private", .error), c(340, "notes/private", .succeeded)], until: 3_600, failures: 1_000, expected: []
        ),
    ]

    @Test("timelines", arguments: cases)
    func timeline(_ test: Case) {
        var driver = Driver(route: NotificationRoute(policy: test.policy), failuresLeft: test.failures)
        driver.run(test.changes, until: test.until)
        #expect(driver.delivered == test.expected)
    }

    @Test("a restart keeps what was owed and sends nothing twice", arguments: [0 as Int64, 100, 329, 330, 335, 600, 929, 1_000])
    func restart(atSecond restartSecond: Int64) throws {
        let changes = [Self.c(0, "notes/private", .error), Self.c(600, "notes/private", .succeeded)]
        var before = Driver(route: NotificationRoute(policy: .defaults), failuresLeft: 0)
        before.run(changes.filter { $0.seconds < restartSecond }, until: restartSecond - 1)
        let saved = try JSONEncoder().encode(before.route.state)
        let restored = try JSONDecoder().decode(NotificationRouteState.self, from: saved)
        #expect(restored == before.route.state)
        var after = Driver(route: NotificationRoute(policy: .defaults, state: restored), failuresLeft: 0, from: restartSecond)
        // The daemon observes every pair once after a restart, with the summary it restored.
        if restartSecond > 0 { after.route.observe(key("notes/private"), summary: restartSecond <= 600 ? .error : .succeeded, at: at(restartSecond)) }
        after.run(changes.filter { $0.seconds >= restartSecond }, until: 3_600)
        #expect(before.delivered + after.delivered == ["330 firing notes/private", "930 resolved notes/private"])
    }

    /// Timelines whose deliveries are read as `SECOND KIND PAIR SUMMARY<-PREVIOUS` (`?` unknown).
    static let previousCases: [(String, [Change], [String])] = [
        (
            "a firing names the summary before; its resolution the broken one",
            [c(0, "notes/private", .succeeded), c(10, "notes/private", .error), c(900, "notes/private", .succeeded)],
            ["340 firing notes/private error<-succeeded", "1230 resolved notes/private succeeded<-error"]
        ),
        (
            "the summary changing within `when` keeps the one before it entered; the resolution names the last",
            [
                c(0, "notes/private", .inProgress), c(10, "notes/private", .error), c(100, "notes/private", .stalled),
                c(900, "notes/private", .succeeded),
            ],
            ["340 firing notes/private stalled<-in_progress", "1230 resolved notes/private succeeded<-stalled"]
        ),
        ("a first verdict in `when` has no summary before", [c(0, "notes/private", .engineDown)], ["330 firing notes/private engine_down<-?"]),
        (
            "back in `when` before the resolution, the previous stays the one before the firing",
            [
                c(0, "notes/private", .notStarted), c(10, "notes/private", .error), c(600, "notes/private", .succeeded), c(700, "notes/private", .stalled),
                c(1_000, "notes/private", .succeeded),
            ],
            ["340 firing notes/private error<-not_started", "1330 resolved notes/private succeeded<-stalled"]
        ),
    ]

    @Test("previous summaries of firings and resolutions", arguments: previousCases)
    func previousSummaries(_ name: String, _ changes: [Change], _ expected: [String]) {
        var driver = Driver(route: NotificationRoute(policy: .defaults), failuresLeft: 0)
        driver.run(changes, until: 7_200)
        #expect(driver.previous == expected, "\(name)")
    }

    @Test("a state saved before previous summaries were kept still loads: what was owed is delivered, previous unknown")
    func oldStateLoads() throws {
        let old = """
            {"alerts":[{"pair":"notes/private","state":"clearing","summary":"succeeded","since":\(at(0).microseconds),\
            "notified":\(at(330).microseconds),"clearedAt":\(at(600).microseconds)}],"gathering":[],"held":[],\
            "owed":[{"id":1,"kind":"firing","pairs":[{"pair":"notes/private","summary":"error","since":\(at(0).microseconds),\
            "isRepeat":false}],"decidedAt":\(at(330).microseconds),"failures":2,"nextAttempt":\(at(400).microseconds)}],\
            "released":[\(at(330).microseconds)],"nextID":2,"sent":0,"dropped":0}
            """
        let state = try JSONDecoder().decode(NotificationRouteState.self, from: Data(old.utf8))
        #expect(state.owed.map(\.id) == [1])
        #expect(state.owed.first?.pairs.first?.previous == nil)
        #expect(state.owed.first?.failures == 2)
        var route = NotificationRoute(policy: .defaults, state: state)
        #expect(route.startDeliveries(at: at(399)).isEmpty)
        #expect(route.startDeliveries(at: at(400)).map(\.id) == [1])
        route.delivered(1)
        route.advance(to: at(900))
        route.advance(to: at(930))
        let resolved = route.startDeliveries(at: at(930))
        #expect(resolved.map(\.kind) == [.resolved])
        #expect(resolved.first?.pairs.first.map { $0.summary == .succeeded && $0.previous == nil } == true)
        // Saved again, the new fields round-trip.
        let again = try JSONDecoder().decode(NotificationRouteState.self, from: try JSONEncoder().encode(route.state))
        #expect(again == route.state)
    }

    @Test("a crash while a delivery is in flight delivers it again after the restart, once")
    func crashInFlight() throws {
        var route = NotificationRoute(policy: .defaults)
        route.observe(key("notes/private"), summary: .error, at: at(0))
        route.advance(to: at(300))
        route.advance(to: at(330))
        let started = route.startDeliveries(at: at(330))
        #expect(started.map(\.id) == [1])
        // Persisted before the delivery; the process dies before it reports back.
        let saved = try JSONEncoder().encode(route.state)
        var restarted = NotificationRoute(policy: .defaults, state: try JSONDecoder().decode(NotificationRouteState.self, from: saved))
        let again = restarted.startDeliveries(at: at(340))
        #expect(again.map(\.id) == [1])
        restarted.delivered(1)
        #expect(restarted.startDeliveries(at: at(10_000)).isEmpty)
        #expect(restarted.state.sent == 1)
    }

    @Test("forget resolves silently and drops what was owed")
    func forget() {
        var route = NotificationRoute(policy: .defaults)
        route.observe(key("notes/private"), summary: .error, at: at(0))
        route.advance(to: at(300))
        route.advance(to: at(330))
        route.forget(key("notes/private"))
        route.advance(to: at(2_000))
        #expect(route.startDeliveries(at: at(2_000)).isEmpty)
        #expect(route.state.dropped == 1)
        #expect(route.nextWake() == nil)
    }

    @Test("a quiet route asks for no wakeup")
    func quiet() {
        var route = NotificationRoute(policy: .defaults)
        route.observe(key("notes/private"), summary: .succeeded, at: at(0))
        route.observe(key("photos/private"), summary: .noNetwork, at: at(0))
        #expect(route.nextWake() == nil)
    }

    @Test(
        "engines patterns",
        arguments: [
            ("photos", "photos/private", true), ("photos", "photos2/private", false), ("photo*", "photos2/shared", true),
            ("*/shared", "notes/shared", true), ("*/shared", "notes/private", false), ("n?tes/*", "notes/private", true),
            ("*", "anything/private", true), ("a*b*c", "aXbYc/private", true), ("a*b*c", "aXbY/private", false),
        ])
    func patterns(_ pattern: String, _ pair: String, _ matches: Bool) {
        #expect(PairPattern(pattern).matches(key(pair)) == matches)
    }

    @Test("backoff doubles from 10 s to at most an hour", arguments: [(1, 10), (2, 20), (3, 40), (8, 1_280), (9, 2_560), (10, 3_600), (50, 3_600)])
    func backoff(_ failures: Int, _ seconds: Int64) {
        #expect(RouteNotification.backoff(afterFailures: failures) == .seconds(seconds))
    }
}

/// `ENGINE/DATABASE` as a key.
private func key(_ pair: String) -> PairKey {
    let parts = pair.split(separator: "/").map(String.init)
    return PairKey(engine: name(parts[0]), database: Database(parts[1])!)
}

/// Drives a route as the daemon does: summaries observed as they change, `advance` at every
/// change and at `nextWake`, deliveries started when due and reported at once.
private struct Driver {
    var route: NotificationRoute
    var failuresLeft: Int
    var now: Int64 = 0
    var delivered: [String] = []
    /// Each delivered pair as `SECOND KIND PAIR SUMMARY<-PREVIOUS`.
    var previous: [String] = []
    /// Each pair's last summary, passed on as the previous one, as the daemon's history does.
    var summaries: [String: Summary] = [:]

    init(route: NotificationRoute, failuresLeft: Int, from start: Int64 = 0) {
        self.route = route
        self.failuresLeft = failuresLeft
        self.now = start
    }

    mutating func run(_ changes: [NotificationRouteTests.Change], until end: Int64) {
        var pending = changes[...]
        while true {
            let wake = self.route.nextWake().map { Int64(($0.microseconds + 999_999) / 1_000_000) - baseSeconds }
            let next = [pending.first?.seconds, wake].compactMap { $0 }.min()
            guard let next, next <= end else { return }
            self.now = max(self.now, next)
            while let change = pending.first, change.seconds <= self.now {
                self.route.observe(key(change.pair), summary: change.summary, previous: self.summaries[change.pair], at: at(change.seconds))
                self.summaries[change.pair] = change.summary
                pending.removeFirst()
            }
            self.step()
        }
    }

    mutating func step() {
        self.route.advance(to: at(self.now))
        for notification in self.route.startDeliveries(at: at(self.now)) {
            if self.failuresLeft > 0 {
                self.failuresLeft -= 1
                self.route.failed(notification.id, at: at(self.now))
                continue
            }
            self.route.delivered(notification.id)
            let pairs = notification.pairs.map(\.pair.description).joined(separator: ",")
            let repeated = notification.pairs.allSatisfy(\.isRepeat) ? " (repeat)" : ""
            self.delivered.append("\(self.now) \(notification.kind.rawValue) \(pairs)\(repeated)")
            self.previous += notification.pairs.map {
                "\(self.now) \(notification.kind.rawValue) \($0.pair) \($0.summary)<-\($0.previous.map(\.description) ?? "?")"
            }
        }
    }
}
