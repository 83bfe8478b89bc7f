/// Where a route delivers (docs/notifications.md): exactly one of a command, mail through the
/// system's sendmail, a webhook, or the desktop of the user the daemon runs as.
public enum NotificationTarget: Sendable {
    /// The program and its arguments, run without a shell.
    case command([String])
    /// A message for `to`, from `from`, handed to `sendmail -t -oi`.
    case mail(to: [String], from: String, sendmail: String)
    case webhook(WebhookTarget)
    /// `org.freedesktop.Notifications` on the session bus (docs/user-sessions.md).
    case desktop

    /// `command`, `mail`, `webhook` or `desktop`, for `syncmon notify list`.
    public var kind: String {
        switch self {
        case .command: "command"
        case .mail: "mail"
        case .webhook: "webhook"
        case .desktop: "desktop"
        }
    }
}

/// A webhook target: the URL, headers given in the configuration and headers whose values are
/// read from files at each delivery, and the CA file that checks an https server.
public struct WebhookTarget: Sendable {
    public var url: String
    public var headers: [(String, String)]
    /// Header names and the files holding their values (the first line, read at each delivery).
    public var headerFiles: [(String, String)]
    public var caFile: String?

    public init(url: String, headers: [(String, String)] = [], headerFiles: [(String, String)] = [], caFile: String? = nil) {
        self.url = url
        self.headers = headers
        self.headerFiles = headerFiles
        self.caFile = caFile
    }

    /// Whether `text` is an `http://` or `https://` URL with a host and no blanks.
    public static func isValidURL(_ text: String) -> Bool {
        let rest: Substring
        if text.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else if text.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else {
            return false
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.hasPrefix(":"), !host.hasSuffix(":") else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }
}
