import SyncmonCore

/// Times as the pages write them: UTC, which the page's header says, from the RFC 3339 text.
enum PageTime {
    /// `2026-11-28`.
    static func day(_ time: Timestamp) -> String {
        String(RFC3339.format(time).prefix(10))
    }

    /// `10:02`, or `10:02:11` with `seconds`.
    static func clock(_ time: Timestamp, seconds: Bool = false) -> String {
        String(RFC3339.format(time).dropFirst(11).prefix(seconds ? 8 : 5))
    }

    /// `2026-11-28 10:02:11 UTC`.
    static func full(_ time: Timestamp) -> String {
        self.day(time) + " " + self.clock(time, seconds: true) + " UTC"
    }

    /// `just now`, `45s ago`, `12m ago`, `3h ago`, `2d ago`; `in 5m` for a time ahead.
    static func age(of time: Timestamp, at now: Timestamp) -> String {
        let seconds = now.since(time).microseconds / 1_000_000
        if seconds < 0 { return "in " + self.span(-seconds) }
        return seconds < 5 ? "just now" : self.span(seconds) + " ago"
    }

    /// `45s`, `12m`, `3h`, `2d`.
    static func span(_ seconds: Int64) -> String {
        switch seconds {
        case ..<60: "\(seconds)s"
        case ..<3_600: "\(seconds / 60)m"
        case ..<172_800: "\(seconds / 3_600)h"
        default: "\(seconds / 86_400)d"
        }
    }

    /// `1.2 s`, `340 ms`, `3m 5s`: a round trip.
    static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds < 60 { return "\((seconds * 10).rounded() / 10) s" }
        let whole = Int64(seconds.rounded())
        return "\(whole / 60)m \(whole % 60)s"
    }
}
