/// A mail address as a route's `mail-to` and `mail-from` take it (docs/notifications.md): a bare
/// `local@domain` of printable ASCII without blanks, quotes or angle brackets. Strict on purpose:
/// the address goes into a header handed to sendmail, where a newline or comma would add recipients.
public enum MailAddress {
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, text.utf8.count <= 254 else { return false }
        let forbidden = Set("<>()[]\\,;:\"'` ".utf8)
        return text.utf8.allSatisfy { (0x21...0x7E).contains($0) && !forbidden.contains($0) }
    }
}
