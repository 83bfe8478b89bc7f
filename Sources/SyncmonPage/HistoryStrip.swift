import SyncmonCore

/// A pair's last 24 hours as stretches of one health state each (docs/page.md, "The strip"),
/// drawn as an inline SVG: one `<rect>` per stretch with a `<title>` saying when and what.
///
/// The stretches are the history's changes in the window, each lasting until the next change or
/// `now`; before the first of them, the state the last earlier change left, from the window's
/// start. Time before anything was known is the strip's own background ("no data"). The SVG's
/// units are seconds from the window's start, so a stretch's `x` is its start to the second.
///
/// A pair that changed more than ``maximumStretches`` times in the day (an engine flapping) is
/// drawn by the hour instead, each hour in the worst state it saw, so that one pair cannot make
/// the page large.
public struct HistoryStrip: Sendable, Equatable {
    /// One stretch: from `start` to `end` in the summary `to`, for `why` (empty when the change
    /// says none); `changes` counts the changes an hour's stretch stands for.
    public struct Stretch: Sendable, Equatable {
        public var start: Timestamp
        public var end: Timestamp
        public var to: Summary
        public var why: String
        public var changes: Int

        public var health: PageHealth { PageHealth(self.to) }
    }

    /// The window's length.
    public static let window = TimeSpan.seconds(Int64(86_400))
    /// The most stretches drawn one by one.
    public static let maximumStretches = 24

    public var start: Timestamp
    public var now: Timestamp
    public var stretches: [Stretch]

    /// The strip of `changes` (oldest first) for the 24 hours up to `now`.
    public init(changes: [HealthChange], now: Timestamp) {
        let start = now.adding(TimeSpan(microseconds: -Self.window.microseconds))
        self.start = start
        self.now = now
        var stretches: [Stretch] = []
        func stretch(_ change: HealthChange, from: Timestamp) -> Stretch {
            Stretch(start: from, end: now, to: change.to, why: PageWords.why(change), changes: 1)
        }
        // The state when the window opened: what the last change before it left.
        if let before = changes.last(where: { $0.time < start }) { stretches.append(stretch(before, from: start)) }
        for change in changes where change.time >= start && change.time <= now {
            if !stretches.isEmpty { stretches[stretches.count - 1].end = change.time }
            stretches.append(stretch(change, from: change.time))
        }
        self.stretches = stretches.count > Self.maximumStretches ? Self.hourly(stretches, start: start, now: now) : stretches
    }

    /// One stretch an hour, in the worst state of the stretches that overlap it (by the page's
    /// order of problems), counting the changes in it.
    static func hourly(_ stretches: [Stretch], start: Timestamp, now: Timestamp) -> [Stretch] {
        (0..<24).compactMap { hour -> Stretch? in
            let from = start.adding(.seconds(Int64(hour * 3_600)))
            let until = hour == 23 ? now : start.adding(.seconds(Int64((hour + 1) * 3_600)))
            // The stretches that begin in the hour (the last hour up to `now` inclusive), and the
            // one that was going on when it began.
            let begins = { (stretch: Stretch) in stretch.start >= from && (stretch.start < until || hour == 23) }
            let overlapping = stretches.filter { begins($0) || ($0.start < from && $0.end > from) }
            guard
                let worst = overlapping.min(by: { (PageOrder.rank($0.to), $0.to) < (PageOrder.rank($1.to), $1.to) })
            else { return nil }
            let changes = overlapping.filter(begins).count
            return Stretch(start: from, end: until, to: worst.to, why: worst.why, changes: changes)
        }
    }

    /// Writes `<svg …>` with a rect and title per stretch; `detailed` titles say why too.
    func write(to html: inout HTMLWriter, detailed: Bool = false) {
        html.raw("<svg viewBox=\"0 0 86400 1\" preserveAspectRatio=\"none\">")
        let startSeconds = self.start.microseconds / 1_000_000
        for stretch in self.stretches {
            let x = stretch.start.microseconds / 1_000_000 - startSeconds
            // A stretch of seconds is seen all the same: the stylesheet strokes each rect 3 px wide.
            let width = stretch.end.microseconds / 1_000_000 - startSeconds - x
            html.raw("<rect class=\"")
            html.raw(stretch.health.stripClass)
            html.raw("\" x=\"")
            html.number(x)
            html.raw("\" width=\"")
            html.number(width)
            html.raw("\"><title>")
            html.text(Self.title(stretch, now: self.now, detailed: detailed))
            html.raw("</title></rect>")
        }
        html.raw("</svg>")
    }

    /// `10:02–10:40 error`, with the date when the stretch began on another day than it ended,
    /// the number of changes of an hour's stretch, and with `detailed` the why
    /// (`: export: quotaExceeded — Storage full`). UTC.
    static func title(_ stretch: Stretch, now: Timestamp, detailed: Bool) -> String {
        let until = stretch.end == now ? "now" : PageTime.clock(stretch.end)
        let day = PageTime.day(stretch.start) == PageTime.day(stretch.end) ? "" : PageTime.day(stretch.start) + " "
        var text = "\(day)\(PageTime.clock(stretch.start))–\(until) \(stretch.to)"
        if stretch.changes > 1 { text += " (worst of \(stretch.changes) changes)" }
        if detailed, !stretch.why.isEmpty { text += ": " + PageWords.cut(stretch.why, to: 160) }
        return text
    }
}
