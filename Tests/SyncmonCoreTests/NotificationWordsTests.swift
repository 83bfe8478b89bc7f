import SyncmonCore
import Testing

/// The pure pieces of a route's settings (docs/notifications.md): a command line split like
/// `ExecStart=`, mail addresses, webhook headers.
@Suite("Notification words")
struct NotificationWordsTests {
    @Test(
        "command lines split like ExecStart=, nothing expanded",
        arguments: [
            ("/usr/bin/notify", ["/usr/bin/notify"]),
            ("/bin/a  b\tc", ["/bin/a", "b", "c"]),
            (#"/bin/a "two words" 'single $HOME'"#, ["/bin/a", "two words", "single $HOME"]),
            (#"/bin/a \"quoted\" x\ y"#, ["/bin/a", "\"quoted\"", "x y"]),
            (#"/bin/a "" b"#, ["/bin/a", "", "b"]),
            ("/bin/a $VAR *", ["/bin/a", "$VAR", "*"]),
            ("", []),
        ] as [(String, [String])]
    )
    func split(text: String, words: [String]) {
        #expect(CommandWords.split(text) == words)
        #expect(CommandWords.split(CommandWords.join(words)) == words)
    }

    @Test("an open quote or a trailing backslash is no command line", arguments: [#"/bin/a "open"#, "/bin/a 'x", #"/bin/a \"#])
    func refused(text: String) {
        #expect(CommandWords.split(text) == nil)
    }

    @Test(
        "mail addresses: bare user@host, nothing that adds a recipient or a header",
        arguments: [
            ("admin@example.org", true), ("root@localhost", true), ("a.b+c@mail.example", true), ("admin", false), ("@example.org", false),
            ("admin@", false), ("a@b@c", false), ("a b@c", false), ("a@b,c@d", false), ("a@b\nBcc: x@y", false), ("<a@b>", false),
            ("ü@example.org", false),
        ] as [(String, Bool)]
    )
    func mailAddress(text: String, valid: Bool) {
        #expect(MailAddress.isValid(text) == valid)
    }

    @Test(
        "webhook headers: a token name, a value without line breaks",
        arguments: [
            ("Authorization: Bearer abc", "Authorization", "Bearer abc"), ("X-Team:storage", "X-Team", "storage"),
            ("X-Path: /etc/token", "X-Path", "/etc/token"), ("No Colon", nil, nil), (": value", nil, nil), ("Bad Name: x", nil, nil),
            ("X-Empty:", nil, nil), ("X-Split: a\r\nX-Other: b", nil, nil),
        ] as [(String, String?, String?)]
    )
    func header(text: String, name: String?, value: String?) {
        let parsed = WebhookHeader.parse(text)
        #expect(parsed?.0 == name)
        #expect(parsed?.1 == value)
    }
}
