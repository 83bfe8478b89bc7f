import Foundation
import SyncmonCore
import Testing

/// The words of a notification (docs/notifications.md): titles that name the pair and the
/// problem within 120 bytes, bodies with every pair, and the mail handed to sendmail with its
/// non-ASCII subject encoded per RFC 2047 and decoded back whole.
@Suite("RouteNotification text")
struct NotificationTextTests {
    static let notesKey = PairKey(engine: name("notes"), database: .private)
    static let photosKey = PairKey(engine: name("photos"), database: .shared)

    /// An export that failed at `at(10)` with iCloud's quota and `message`.
    static func quotaRow(_ key: PairKey, message: String? = "Storage full") -> StatusRow {
        let error = PhaseError(code: ErrorCode(.quotaExceeded), errorClass: .actionable, message: message)
        let export = PhaseState.failed(started: at(9), ended: at(10), error: error)
        return StatusRow(
            key: key, summary: .error, stalls: StallSet([]), account: .available, network: .available,
            phases: (.notStarted, .notStarted, export), failing: (nil, nil, OutstandingFailure(since: at(10), error: error)),
            throttledUntil: nil, pending: (0, 0), lastEvent: at(10), up: true
        )
    }

    static func notification(_ kind: RouteNotification.Kind, _ pairs: [(PairKey, Summary)], isRepeat: Bool = false) -> RouteNotification {
        let notified = pairs.map { NotifiedPair(pair: $0.0, summary: $0.1, since: at(10), isRepeat: isRepeat) }
        return RouteNotification(id: 1, kind: kind, pairs: notified, decidedAt: at(340), nextAttempt: at(340))
    }

    static let rows = [notesKey: quotaRow(notesKey), photosKey: quotaRow(photosKey, message: nil)]

    @Test(
        "titles",
        arguments: [
            (
                notification(.firing, [(notesKey, .error)]),
                "nas: notes/private error (export: quotaExceeded since 12:00 — Storage full)"
            ),
            (
                notification(.firing, [(notesKey, .error)], isRepeat: true),
                "nas: notes/private still error (export: quotaExceeded since 12:00 — Storage full)"
            ),
            (
                notification(.firing, [(notesKey, .error), (photosKey, .stalled)]),
                "nas: 2 pairs failing: notes/private error, photos/shared stalled"
            ),
            (notification(.resolved, [(notesKey, .succeeded)]), "nas: notes/private back to succeeded after 5m"),
            (notification(.resolved, [(notesKey, .succeeded), (photosKey, .succeeded)]), "nas: 2 pairs back: notes/private, photos/shared"),
        ])
    func titles(_ notification: RouteNotification, _ title: String) {
        let text = NotificationText(notification, host: "nas", rows: Self.rows, pageURL: nil, now: at(340))
        #expect(text.title == title)
    }

    @Test("the body lists every pair with its detail, message and page")
    func body() {
        let notification = Self.notification(.firing, [(Self.notesKey, .error), (Self.photosKey, .error)])
        let text = NotificationText(notification, host: "nas", rows: Self.rows, pageURL: "https://nas.local:9478/", now: at(340))
        #expect(
            text.body == """
                notes/private: error since 2026-11-21T12:00:10Z
                  export: quotaExceeded since 12:00 — Storage full
                  https://nas.local:9478/pair/notes/private

                photos/shared: error since 2026-11-21T12:00:10Z
                  export: quotaExceeded since 12:00
                  https://nas.local:9478/pair/photos/shared

                """)
    }

    @Test("a forgotten pair's notification still names it")
    func withoutRow() {
        let text = NotificationText(Self.notification(.firing, [(Self.notesKey, .error)]), host: "nas", rows: [:], pageURL: nil, now: at(340))
        #expect(text.title == "nas: notes/private error")
        #expect(text.body == "notes/private: error since 2026-11-21T12:00:10Z\n")
    }

    @Test(
        "cut to bytes on a character boundary",
        arguments: [
            ("short", 10, "short"), ("0123456789abc", 10, "0123456…"), ("ééééé", 8, "éé…"), ("👍👍👍", 9, "👍…"), ("abc", 3, "abc"),
        ])
    func cut(_ text: String, _ limit: Int, _ expected: String) {
        let cut = NotificationText.cut(text, toBytes: limit)
        #expect(cut == expected)
        #expect(cut.utf8.count <= limit)
    }

    @Test("a long message keeps the title within 120 bytes")
    func longTitle() {
        let rows = [Self.notesKey: Self.quotaRow(Self.notesKey, message: String(repeating: "Speicher voll — ", count: 20))]
        let text = NotificationText(Self.notification(.firing, [(Self.notesKey, .error)]), host: "nas", rows: rows, pageURL: nil, now: at(340))
        #expect(text.title.utf8.count <= NotificationText.titleLimit)
        #expect(text.title.hasPrefix("nas: notes/private error (export: quotaExceeded"))
        #expect(text.title.hasSuffix("…"))
    }

    @Test(
        "headers: ASCII as it is, anything else as RFC 2047 words that decode back",
        arguments: [
            "[syncmon] nas: notes/private error", "[syncmon] nas: fotos/private error (Speicher voll — “Fotos”)", String(repeating: "日本語のメッセージ", count: 8),
        ])
    func header(_ value: String) throws {
        let encoded = MailMessage.encodedHeader(value)
        #expect(Self.decode(encoded) == value)
        for line in encoded.split(separator: "\n") {
            #expect(line.utf8.count <= 76)
            #expect(line.utf8.allSatisfy { (0x20...0x7E).contains($0) })
        }
    }

    @Test("base64 matches Foundation's", arguments: ["", "a", "ab", "abc", "abcd", "é", "日本語", "\u{0}\u{FF}"])
    func base64(_ text: String) {
        #expect(MailMessage.base64(Array(text.utf8)) == Data(text.utf8).base64EncodedString())
    }

    @Test("the mail: headers, then a blank line, then the UTF-8 body")
    func mail() {
        let text = NotificationText(Self.notification(.firing, [(Self.notesKey, .error)]), host: "nas", rows: Self.rows, pageURL: nil, now: at(340))
        let mail = MailMessage.render(text, from: "syncmon@nas", to: ["anna@example.net", "root"], kind: .firing)
        let parts = mail.components(separatedBy: "\n\n")
        #expect(parts[0].contains("From: syncmon@nas\nTo: anna@example.net, root\nSubject: =?UTF-8?B?"))
        #expect(parts[0].contains("Content-Type: text/plain; charset=utf-8"))
        #expect(mail.hasSuffix("\n\n" + text.body))
    }

    /// RFC 2047 words back to text (what a mail reader does).
    static func decode(_ header: String) -> String {
        let words = header.split(separator: "\n ").map(String.init)
        guard words.allSatisfy({ $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") }) else { return header }
        var bytes = Data()
        for word in words {
            bytes += Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data()
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
