import FoundationEssentials
import SyncmonCore

/// One notification as a target receives it (docs/notifications.md): the JSON document on a
/// command's stdin and in a webhook's body, the `SYNCMON_*` environment, the title and body a
/// person reads, and the mail made of them.
public struct NotificationMessage: Sendable, Equatable {
    /// `firing`, `resolved` or `test` (`SYNCMON_EVENT`).
    public var event: String
    public var route: String
    public var host: String
    public var title: String
    public var body: String
    public var pairs: [Pair]

    /// One pair the notification covers.
    public struct Pair: Sendable, Equatable, Codable {
        public var engine: String
        public var database: String
        public var summary: String
        /// The summary before (empty when unknown): see ``NotifiedPair/previous``.
        public var previous: String
        public var since: String
        public var detail: String
        public var message: String
        public var url: String
        public var isRepeat: Bool

        enum CodingKeys: String, CodingKey {
            case engine, database, summary, previous, since, detail, message, url
            case isRepeat = "repeat"
        }
    }

    /// The message for `notification` of `route`, sent from `host`, with the pairs' status
    /// `rows` as they are `now`.
    public init(
        _ notification: RouteNotification, route: NotificationRouteConfiguration, host: String, rows: [PairKey: StatusRow], now: Timestamp
    ) {
        let text = NotificationText(notification, host: host, rows: rows, pageURL: route.pageURL, now: now)
        self.event = notification.kind.rawValue
        self.route = route.name
        self.host = host
        self.title = text.title
        self.body = text.body
        self.pairs = notification.pairs.map { notified in
            let row = rows[notified.pair]
            return Pair(
                engine: notified.pair.engine.description,
                database: notified.pair.database.description,
                summary: notified.summary.description,
                previous: notified.previous?.description ?? "",
                since: RFC3339.format(notified.since),
                detail: row.map { StatusDetail.text(for: $0, now: now) } ?? "",
                message: row?.outstandingFailure?.failure.error.message ?? "",
                url: NotificationText.pageURL(route.pageURL, of: notified.pair) ?? "",
                isRepeat: notified.isRepeat
            )
        }
    }

    /// `syncmon notify test`: a message that names no pair.
    public static func test(route: String, host: String, url: String?) -> NotificationMessage {
        NotificationMessage(
            event: "test", route: route, host: host, title: "\(host): syncmon test notification through \(route)",
            body: "A test of the notification route \(route) from syncmon on \(host)." + (url.map { "\n\($0)" } ?? "") + "\n", pairs: [])
    }

    public init(event: String, route: String, host: String, title: String, body: String, pairs: [Pair]) {
        self.event = event
        self.route = route
        self.host = host
        self.title = title
        self.body = body
        self.pairs = pairs
    }

    /// The JSON document (one line).
    public var json: [UInt8] {
        let document = Document(
            event: self.event, route: self.route, host: self.host, title: self.title, body: self.body, count: self.pairs.count, pairs: self.pairs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(document)) ?? Data("{}".utf8))
    }

    /// The most of the body `SYNCMON_BODY` holds: Linux refuses to start a program with one
    /// variable over 128 KiB (the body of 1,000 pairs), and the whole body is on stdin anyway.
    public static let environmentBodyLimit = 32 * 1024

    /// The `SYNCMON_*` variables: the first pair's fields, and how many pairs there are.
    public var environment: [String: String] {
        let first = self.pairs.first
        return [
            "SYNCMON_EVENT": self.event,
            "SYNCMON_ROUTE": self.route,
            "SYNCMON_HOST": self.host,
            "SYNCMON_ENGINE": first?.engine ?? "",
            "SYNCMON_DATABASE": first?.database ?? "",
            "SYNCMON_SUMMARY": first?.summary ?? "",
            "SYNCMON_PREVIOUS_SUMMARY": first?.previous ?? "",
            "SYNCMON_SINCE": first?.since ?? "",
            "SYNCMON_DETAIL": first?.detail ?? "",
            "SYNCMON_MESSAGE": first?.message ?? "",
            "SYNCMON_TITLE": self.title,
            "SYNCMON_BODY": NotificationText.cut(self.body, toBytes: Self.environmentBodyLimit),
            "SYNCMON_URL": first?.url ?? "",
            "SYNCMON_PAIRS": String(self.pairs.count),
        ]
    }

    /// The document's layout.
    private struct Document: Encodable {
        var event: String
        var route: String
        var host: String
        var title: String
        var body: String
        var count: Int
        var pairs: [Pair]
    }
}
