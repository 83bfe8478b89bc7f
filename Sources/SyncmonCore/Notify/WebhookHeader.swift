/// A `webhook-header` (or `webhook-header-file`) value, `Name: value` (docs/notifications.md):
/// the name an HTTP token, the value printable without line breaks, so a header can never
/// smuggle another one in.
public enum WebhookHeader {
    /// The name and value (trimmed), or nil when `text` is not a header.
    public static func parse(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = String(text[..<colon])
        let value = String(text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
        let token = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        guard !name.isEmpty, name.utf8.allSatisfy(token.contains), !value.isEmpty else { return nil }
        guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return nil }
        return (name, value)
    }
}
