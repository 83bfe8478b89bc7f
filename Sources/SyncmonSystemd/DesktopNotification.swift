/// One notification for the desktop's notification server (the freedesktop.org Desktop
/// Notifications Specification, `org.freedesktop.Notifications.Notify`): what a `desktop = yes`
/// route shows (docs/notifications.md, docs/user-sessions.md).
public struct DesktopNotification: Sendable, Equatable {
    /// The specification's urgency levels, sent as the `urgency` hint (a byte).
    public enum Urgency: UInt8, Sendable {
        case low = 0
        case normal = 1
        case critical = 2
    }

    /// The sender's name the server shows and groups by.
    public var appName = "syncmon"
    /// The id of an earlier notification this one replaces (the same pair's), 0 for a new one.
    public var replacesID: UInt32 = 0
    public var summary: String
    /// Plain text; a server that renders markup gets it escaped (``DesktopNotificationBus``).
    public var body: String
    public var urgency: Urgency
    /// The pair's page (`page-url`): a link in the body where the server renders hyperlinks, and
    /// the default action where it supports actions.
    public var link: String?
    /// Milliseconds the server keeps it, -1 for the server's default, 0 for until dismissed.
    public var expireTimeout: Int32 = -1

    public init(summary: String, body: String, urgency: Urgency, replacesID: UInt32 = 0, link: String? = nil) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.replacesID = replacesID
        self.link = link
    }

    /// The body as sent to a server with `capabilities`: escaped when it renders markup (the
    /// specification's subset of HTML: `&`, `<`, `>` would start markup), and the link made one
    /// where it renders hyperlinks: where the body already says it (the notification text names
    /// the pair's page), else appended — never shown twice.
    public func renderedBody(capabilities: Set<String>) -> String {
        guard capabilities.contains("body-markup") else { return self.body }
        let text = Self.escaped(self.body)
        guard let link, capabilities.contains("body-hyperlinks") else { return text }
        let shown = Self.escaped(link)
        let anchor = "<a href=\"\(shown)\">\(shown)</a>"
        return text.contains(shown) ? text.replacing(shown, with: anchor) : text + "\n" + anchor
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
