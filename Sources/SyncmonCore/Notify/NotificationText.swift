/// The words of a notification (docs/notifications.md): a title of at most 120 bytes that says
/// which pair and what is wrong, and a plain-text body with every pair it covers — its summary
/// and since when, the table's DETAIL (the failure's own message included), and its page.
public struct NotificationText: Equatable, Sendable {
    public static let titleLimit = 120

    public var title: String
    public var body: String

    /// The text of `notification`, sent from `host`, with each pair's status `rows` as they are
    /// `now` (a forgotten pair has none) and the pairs' pages under `pageURL`, if set.
    public init(_ notification: RouteNotification, host: String, rows: [PairKey: StatusRow], pageURL: String?, now: Timestamp) {
        self.title = Self.cut(Self.title(notification, host: host, rows: rows, now: now), toBytes: Self.titleLimit)
        self.body =
            notification.pairs.map { Self.paragraph($0, kind: notification.kind, row: rows[$0.pair], pageURL: pageURL, now: now) }
            .joined(separator: "\n\n") + "\n"
    }

    /// `nas: notes/private error (export: quotaExceeded since 10:02 — Storage full)`, or for
    /// several pairs `nas: 3 pairs failing: notes/private error, …`.
    static func title(_ notification: RouteNotification, host: String, rows: [PairKey: StatusRow], now: Timestamp) -> String {
        let pairs = notification.pairs
        switch (notification.kind, pairs.count) {
        case (.firing, 1):
            let pair = pairs[0]
            let still = pair.isRepeat ? "still " : ""
            let detail = rows[pair.pair].map { " (\(StatusDetail.text(for: $0, now: now)))" } ?? ""
            return "\(host): \(pair.pair) \(still)\(pair.summary)\(detail)"
        case (.firing, _):
            let list = pairs.map { "\($0.pair) \($0.summary)" }.joined(separator: ", ")
            return "\(host): \(pairs.count) pairs failing: \(list)"
        case (.resolved, 1):
            let pair = pairs[0]
            return "\(host): \(pair.pair) back to \(pair.summary) after \(Self.duration(now.since(pair.since)))"
        case (.resolved, _):
            return "\(host): \(pairs.count) pairs back: " + pairs.map(\.pair.description).joined(separator: ", ")
        }
    }

    /// One pair's lines of the body.
    static func paragraph(_ pair: NotifiedPair, kind: RouteNotification.Kind, row: StatusRow?, pageURL: String?, now: Timestamp) -> String {
        var lines: [String]
        switch kind {
        case .firing:
            lines = ["\(pair.pair): \(pair.summary) since \(RFC3339.format(pair.since))"]
        case .resolved:
            lines = ["\(pair.pair): back to \(pair.summary), broken for \(Self.duration(now.since(pair.since))) since \(RFC3339.format(pair.since))"]
        }
        if let row { lines.append("  " + StatusDetail.text(for: row, now: now)) }
        if let url = Self.pageURL(pageURL, of: pair.pair) { lines.append("  " + url) }
        return lines.joined(separator: "\n")
    }

    /// The pair's page, `PAGE-URL/pair/ENGINE/DATABASE` (names are URL-safe as they are).
    public static func pageURL(_ base: String?, of pair: PairKey) -> String? {
        guard var base, !base.isEmpty else { return nil }
        while base.hasSuffix("/") { base.removeLast() }
        return "\(base)/pair/\(pair.engine)/\(pair.database)"
    }

    /// `45s`, `12m`, `3h 5m`, `2d 4h`: how long, as a person says it.
    static func duration(_ span: TimeSpan) -> String {
        let seconds = max(0, span.microseconds / 1_000_000)
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3_600: return "\(seconds / 60)m"
        case ..<86_400: return seconds % 3_600 < 60 ? "\(seconds / 3_600)h" : "\(seconds / 3_600)h \(seconds % 3_600 / 60)m"
        default: return seconds % 86_400 < 3_600 ? "\(seconds / 86_400)d" : "\(seconds / 86_400)d \(seconds % 86_400 / 3_600)h"
        }
    }

    /// `text` cut to at most `limit` UTF-8 bytes, on a character boundary, ending in `…` when cut.
    public static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        let ellipsis = "…"
        for character in text {
            let size = character.utf8.count
            if bytes + size + ellipsis.utf8.count > limit { break }
            result.append(character)
            bytes += size
        }
        return result + ellipsis
    }
}
