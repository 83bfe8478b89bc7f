/// A notification as the message handed to `sendmail -t -oi` (docs/notifications.md): `From`,
/// `To`, a `Subject` of at most 200 bytes, encoded per RFC 2047 when it is not ASCII, and a
/// UTF-8 plain-text body. Lines end in `\n`, as sendmail expects on its input.
public enum MailMessage {
    public static let subjectLimit = 200

    /// The whole message.
    public static func render(_ text: NotificationText, from: String, to: [String], kind: RouteNotification.Kind) -> String {
        Self.render(title: text.title, body: text.body, from: from, to: to, event: kind.rawValue)
    }

    /// The whole message of `title` and `body`; `event` is `firing`, `resolved` or `test`.
    public static func render(title: String, body: String, from: String, to: [String], event: String) -> String {
        let subject = NotificationText.cut("[syncmon] " + title, toBytes: Self.subjectLimit)
        let headers = [
            "From: \(from)",
            "To: \(to.joined(separator: ", "))",
            "Subject: \(Self.encodedHeader(subject))",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "Auto-Submitted: auto-generated",
            "X-Syncmon-Event: \(event)",
        ]
        return headers.joined(separator: "\n") + "\n\n" + body
    }

    /// `value` as it may stand in a header: as it is when printable ASCII, else RFC 2047
    /// encoded words (`=?UTF-8?B?…?=`) of at most 75 characters, each holding whole characters,
    /// folded onto continuation lines.
    public static func encodedHeader(_ value: String) -> String {
        if value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return value }
        // 75 characters less `=?UTF-8?B?` and `?=` leave 63 of base64: 45 bytes of text.
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in value {
            let bytes = Array(character.utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?UTF-8?B?\(Self.base64(chunk))?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(Self.base64(chunk))?=") }
        return words.joined(separator: "\n ")
    }

    /// RFC 4648 base64 with padding.
    package static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var word = UInt32(bytes[index]) << 16
            if count > 1 { word |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { word |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                output.append(position <= count ? alphabet[Int(word >> (18 - 6 * UInt32(position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
