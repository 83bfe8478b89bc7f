import Foundation
import SyncmonCore
import Testing

@testable import SyncmonPage

/// A stretch expected: minutes ago it starts and ends, its state.
typealias ExpectedStretch = (startMinutesAgo: Int64, endMinutesAgo: Int64, health: PageHealth)

/// A change to `to` `minutesAgo`.
fileprivate func change(_ minutesAgo: Int64, _ to: Summary) -> HealthChange {
    HealthChange(time: PageFixture.ago(minutesAgo), from: nil, to: to)
}

/// The 24-hour strip: its stretches against the history they are drawn from.
@Suite("History strip")
struct HistoryStripTests {
    @Test(
        "stretches follow the changes in the window, the one before it opening the strip",
        arguments: [
            ([], [ExpectedStretch]()),
            ([change(30, .succeeded)], [(30, 0, .ok)]),
            ([change(3000, .succeeded)], [(1440, 0, .ok)]),
            ([change(3000, .error), change(600, .succeeded), change(10, .stalled)], [(1440, 600, .error), (600, 10, .ok), (10, 0, .stalled)]),
            ([change(100, .notStarted), change(90, .inProgress), change(5, .engineDown)], [(100, 90, .ok), (90, 5, .ok), (5, 0, .engineDown)]),
            ([change(2000, .stopped), change(1500, .noNetwork)], [(1440, 0, .noNetwork)]),
        ] as [([HealthChange], [ExpectedStretch])])
    func stretches(changes: [HealthChange], expected: [ExpectedStretch]) {
        let strip = HistoryStrip(changes: changes, now: PageFixture.now)
        let actual = strip.stretches.map { ($0.start, $0.end, $0.health) }
        #expect(actual.count == expected.count)
        for (got, want) in zip(actual, expected) {
            #expect(got.0 == PageFixture.ago(want.startMinutesAgo) && got.1 == PageFixture.ago(want.endMinutesAgo) && got.2 == want.health)
        }
    }

    @Test("each stretch is a rect from its start to its end, in seconds of the window, with a title saying when, what and why")
    func drawn() {
        let changes = [
            HealthChange(time: PageFixture.ago(3000), from: nil, to: .succeeded),
            HealthChange(time: PageFixture.ago(60), from: .succeeded, to: .error, phase: .export, code: "quotaExceeded", message: "Storage full"),
            HealthChange(time: PageFixture.ago(1), from: .error, to: .succeeded),
        ]
        let strip = HistoryStrip(changes: changes, now: PageFixture.now)
        var html = HTMLWriter()
        strip.write(to: &html)
        let svg = PageFixture.text(html.bytes)
        #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
        #expect(svg.contains("<rect class=\"h-ok\" x=\"0\" width=\"82800\"><title>2026-11-27 12:00–11:00 succeeded</title></rect>"))
        #expect(svg.contains("<rect class=\"h-error\" x=\"82800\" width=\"3540\"><title>11:00–11:59 error</title></rect>"))
        // A minute's stretch is a minute wide (the stylesheet's stroke makes it seen).
        #expect(svg.contains("<rect class=\"h-ok\" x=\"86340\" width=\"60\"><title>11:59–now succeeded</title></rect>"))
        // The pair's page says why.
        var detailed = HTMLWriter()
        strip.write(to: &detailed, detailed: true)
        #expect(PageFixture.text(detailed.bytes).contains("<title>11:00–11:59 error: export: quotaExceeded — Storage full</title>"))
    }

    @Test("a pair that flaps is drawn by the hour, each hour in its worst state")
    func flapping() {
        let changes = (0..<30).map { index in
            HealthChange(time: PageFixture.ago(Int64(290 - 10 * index)), from: nil, to: index.isMultiple(of: 2) ? .error : .succeeded)
        }
        let strip = HistoryStrip(changes: changes, now: PageFixture.now)
        #expect(strip.stretches.count == 5)
        #expect(strip.stretches.allSatisfy { $0.to == .error && $0.start.since(strip.start).microseconds % 3_600_000_000 == 0 })
        #expect(strip.stretches.map(\.changes) == [5, 6, 6, 6, 7])
        var html = HTMLWriter()
        strip.write(to: &html)
        #expect(PageFixture.text(html.bytes).contains("<title>08:00–09:00 error (worst of 6 changes)</title>"))
    }
}
