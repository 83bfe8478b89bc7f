import SyncmonCore
import SyncmonNotify

/// The notification routes' settings (docs/notifications.md): the keys of a `[notify NAME]`
/// section, stored in ``DaemonConfiguration/notifyRoutes`` and checked as a whole by
/// ``NotifyRouteSetting/resolve(_:lines:)`` at load. Routes are set up at start: a reload keeps
/// the running ones and says that changes take a restart.
extension ConfigSection {
    /// `[notify NAME]`: one notification route.
    package static let notify = ConfigSection(
        word: "notify",
        nameForm: "NAME",
        purpose: """
            A notification route (docs/notifications.md): exactly one target (command, mail-to or \
            webhook), and when it fires. Routes are set up at start: changes take a restart.
            """,
        examples: [
            """
            [notify mail]
            mail-to = admin@example.org
            when = error, stalled, engine_down
            hold = 5m
            """,
            """
            [notify phone]
            # ntfy, Gotify, Matrix, Telegram, … through Debian's apprise.
            command = /usr/share/syncmon/notify/syncmon-apprise ntfy://ntfy.sh/my-sync-alerts
            engines = syncthing/*
            repeat = 0
            """,
            """
            [notify chat]
            webhook = https://hooks.example.org/syncmon
            webhook-header = X-Team: storage
            group = 1m
            """,
        ],
        refuse: { NotificationRouteConfiguration.isValidName($0) ? nil : "invalid route name \($0) (1–64 characters of A-Z a-z 0-9 . _ -)" },
        open: { configuration, name in
            if configuration.notifyRoutes[name] == nil { configuration.notifyRoutes[name] = NotifyRouteSetting() }
        }
    )
}

extension DaemonSetting {
    /// The route settings, in the order of help and the reference.
    static let notifySettings: [DaemonSetting] = [
        .notifyCommand, .notifyMailTo, .notifyWebhook, .notifyDesktop, .notifyWhen, .notifyEngines, .notifyHold, .notifyResolved,
        .notifyRepeat, .notifyGroup, .notifyRateLimit, .notifyTimeout, .notifyPageURL, .notifySendmail, .notifyMailFrom,
        .notifyWebhookHeader, .notifyWebhookHeaderFile, .notifyWebhookCAFile,
    ]

    /// A key of a `[notify …]` section, stored by `set` into that route's setting.
    private static func notifyKey<Value: Sendable & Hashable>(
        _ key: String,
        _ value: SettingValue<Value>,
        default defaultText: String,
        example: String,
        summary: String,
        read: @escaping @Sendable (NotifyRouteSetting) -> AnyHashable?,
        set: @escaping @Sendable (inout NotifyRouteSetting, Value) -> Void
    ) -> DaemonSetting {
        DaemonSetting(
            key,
            flag: .none,
            value,
            default: defaultText,
            example: example,
            reload: .restart,
            summary: summary,
            SettingTarget<Value>.section(
                .notify,
                set: { configuration, name, value in set(&configuration.notifyRoutes[name, default: NotifyRouteSetting()], value) },
                table: { AnyHashable($0.notifyRoutes.compactMapValues(read)) }
            )
        )
    }

    package static let notifyCommand = notifyKey(
        "command", .commandWords, default: "none", example: "/usr/local/bin/notify-me --urgent",
        summary: """
            Target: run this program (an absolute path, arguments split like ExecStart=, no shell) with the \
            notification as JSON on stdin and in SYNCMON_* variables; exit 0 is delivered.
            """,
        read: { $0.command.map(AnyHashable.init) }
    ) { $0.command = $1 }

    package static let notifyMailTo = notifyKey(
        "mail-to", .mailAddresses, default: "none", example: "admin@example.org",
        summary: "Target: mail to these addresses (separated by commas), handed to sendmail -t -oi.",
        read: { $0.mailTo.map(AnyHashable.init) }
    ) { $0.mailTo = $1 }

    package static let notifyWebhook = notifyKey(
        "webhook", .webURL, default: "none", example: "https://hooks.example.org/syncmon",
        summary: "Target: POST the notification's JSON to this http or https URL; a 2xx answer is delivered.",
        read: { $0.webhook.map(AnyHashable.init) }
    ) { $0.webhook = $1 }

    package static let notifyDesktop = notifyKey(
        "desktop", .boolean, default: "no", example: "no",
        summary: "Target: the desktop's notifications on the session bus of the user syncmon runs as (docs/user-sessions.md).",
        read: { $0.desktop.map(AnyHashable.init) }
    ) { $0.desktop = $1 }

    package static let notifyWhen = notifyKey(
        "when", .summaries, default: "error, stalled, engine_down", example: "error, stalled, engine_down",
        summary: "The summaries that make a pair fire (no_network, account_not_available and unknown may be added).",
        read: { $0.when.map(AnyHashable.init) }
    ) { $0.when = $1 }

    package static let notifyEngines = notifyKey(
        "engines", .pairPatterns, default: "every pair", example: "syncthing/*, backup-*",
        summary: "The pairs the route covers: globs (* and ?) over ENGINE/DATABASE, or over ENGINE when there is no /.",
        read: { $0.engines.map(AnyHashable.init) }
    ) { $0.engines = $1 }

    package static let notifyHold = notifyKey(
        "hold", .duration(), default: "5m", example: "5m",
        summary: "How long a summary stays in (or out of) when before the pair fires (or resolves).",
        read: { $0.hold.map(AnyHashable.init) }
    ) { $0.hold = $1 }

    package static let notifyResolved = notifyKey(
        "resolved", .boolean, default: "yes", example: "yes",
        summary: "Whether a notification is sent when a fired pair resolves.",
        read: { $0.resolved.map(AnyHashable.init) }
    ) { $0.resolved = $1 }

    package static let notifyRepeat = notifyKey(
        "repeat", .duration(zero: "never repeats"), default: "24h", example: "24h",
        summary: "How often a pair still firing is sent again.",
        read: { $0.repeatInterval.map(AnyHashable.init) }
    ) { $0.repeatInterval = $1 }

    package static let notifyGroup = notifyKey(
        "group", .duration(), default: "30s", example: "30s",
        summary: "Pairs that fire (or resolve) within this span of the first go out as one notification.",
        read: { $0.group.map(AnyHashable.init) }
    ) { $0.group = $1 }

    package static let notifyRateLimit = notifyKey(
        "rate-limit", .positiveInteger, default: "20", example: "20",
        summary: "At most this many notifications an hour; what it holds back is folded into the next one.",
        read: { $0.rateLimit.map(AnyHashable.init) }
    ) { $0.rateLimit = $1 }

    package static let notifyTimeout = notifyKey(
        "timeout", .positiveDuration, default: "30s", example: "30s",
        summary: "How long one delivery may take (then SIGTERM, SIGKILL for a command); longer is a failed delivery.",
        read: { $0.timeout.map(AnyHashable.init) }
    ) { $0.timeout = $1 }

    package static let notifyPageURL = notifyKey(
        "page-url", .webURL, default: "none", example: "http://nas.local:9478",
        summary: "The status page's address: each pair's page (PAGE-URL/pair/ENGINE/DATABASE) goes in the notification.",
        read: { $0.pageURL.map(AnyHashable.init) }
    ) { $0.pageURL = $1 }

    package static let notifySendmail = notifyKey(
        "sendmail", .absolutePath, default: "/usr/sbin/sendmail", example: "/usr/sbin/sendmail",
        summary: "The sendmail program mail-to hands messages to (exim4, postfix and msmtp all provide it).",
        read: { $0.sendmail.map(AnyHashable.init) }
    ) { $0.sendmail = $1 }

    package static let notifyMailFrom = notifyKey(
        "mail-from", .mailAddress, default: "syncmon@HOSTNAME", example: "syncmon@nas.example.org",
        summary: "The From: address of mail-to's messages.",
        read: { $0.mailFrom.map(AnyHashable.init) }
    ) { $0.mailFrom = $1 }

    package static let notifyWebhookHeader = notifyKey(
        "webhook-header", .webhookHeader, default: "none", example: "Authorization: Bearer 0123abcd",
        summary: "A header sent with every webhook request (repeatable).",
        read: { $0.webhookHeaders.isEmpty ? nil : AnyHashable($0.webhookHeaders) }
    ) { $0.webhookHeaders.append($1) }

    package static let notifyWebhookHeaderFile = notifyKey(
        "webhook-header-file", .webhookHeaderFile, default: "none", example: "Authorization: /etc/syncmon/webhook-token",
        summary: "A header whose value is the first line of a file, read at each delivery: a secret kept out of the configuration (repeatable).",
        read: { $0.webhookHeaderFiles.isEmpty ? nil : AnyHashable($0.webhookHeaderFiles) }
    ) { $0.webhookHeaderFiles.append($1) }

    package static let notifyWebhookCAFile = notifyKey(
        "webhook-ca-file", .absolutePath, default: "the system's CAs", example: "/etc/syncmon/hooks-ca.pem",
        summary: "The CA certificates (PEM) an https webhook's certificate is checked against.",
        read: { $0.webhookCAFile.map(AnyHashable.init) }
    ) { $0.webhookCAFile = $1 }
}

extension SettingValue where Value == [String] {
    /// A command line: an absolute path and its arguments, split like a unit's `ExecStart=`.
    static var commandWords: Self {
        let accepted = "an absolute path and its arguments, quoted with \" or ' where they hold blanks"
        return SettingValue(placeholder: "PATH ARG…", accepted: accepted) { text throws(SettingValueError) in
            guard let words = CommandWords.split(text), let first = words.first else {
                throw Self.refusal(text, isNot: "a command line", accepted: accepted)
            }
            guard first.hasPrefix("/") else {
                throw SettingValueError("\(first) is a relative path; write the command's absolute path (syncmon searches no PATH)")
            }
            return words
        } format: {
            CommandWords.join($0)
        }
    }

    /// Mail addresses separated by commas.
    static var mailAddresses: Self {
        let accepted = "mail addresses (user@host) separated by commas"
        return SettingValue(placeholder: "ADDRESS[, ADDRESS…]", accepted: accepted) { text throws(SettingValueError) in
            let addresses = text.split(separator: ",").map { String($0).trimmingBlanks() }
            guard !addresses.isEmpty, addresses.allSatisfy(MailAddress.isValid) else {
                throw Self.refusal(text, isNot: "a list of mail addresses", accepted: accepted)
            }
            return addresses
        } format: {
            $0.joined(separator: ", ")
        }
    }

    /// `engines` globs separated by commas or blanks.
    static var pairPatterns: Self {
        let accepted = "globs over ENGINE or ENGINE/DATABASE (A-Z a-z 0-9 . _ - / * ?), separated by commas or spaces"
        return SettingValue(placeholder: "GLOB…", accepted: accepted) { text throws(SettingValueError) in
            let globs = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/*?")
            guard !globs.isEmpty, globs.allSatisfy({ $0.allSatisfy(allowed.contains) }) else {
                throw Self.refusal(text, isNot: "a list of globs", accepted: accepted)
            }
            return globs
        } format: {
            $0.joined(separator: ", ")
        }
    }
}

extension SettingValue where Value == String {
    /// An `http://` or `https://` URL with a host.
    static var webURL: Self {
        let accepted = "an http:// or https:// URL"
        return SettingValue(placeholder: "URL", accepted: accepted) { text throws(SettingValueError) in
            guard WebhookTarget.isValidURL(text) else { throw Self.refusal(text, isNot: "a URL", accepted: accepted) }
            return text
        } format: {
            $0
        }
    }

    /// One mail address.
    static var mailAddress: Self {
        let accepted = "a mail address (user@host)"
        return SettingValue(placeholder: "ADDRESS", accepted: accepted) { text throws(SettingValueError) in
            guard MailAddress.isValid(text) else { throw Self.refusal(text, isNot: "a mail address", accepted: accepted) }
            return text
        } format: {
            $0
        }
    }

    /// `Name: value`.
    static var webhookHeader: Self {
        let accepted = "Name: value"
        return SettingValue(placeholder: "NAME: VALUE", accepted: accepted) { text throws(SettingValueError) in
            guard WebhookHeader.parse(text) != nil else { throw Self.refusal(text, isNot: "a header", accepted: accepted) }
            return text
        } format: {
            $0
        }
    }

    /// `Name: /path`.
    static var webhookHeaderFile: Self {
        let accepted = "Name: /path of a file holding the value"
        return SettingValue(placeholder: "NAME: PATH", accepted: accepted) { text throws(SettingValueError) in
            guard let header = WebhookHeader.parse(text), header.1.hasPrefix("/") else {
                throw Self.refusal(text, isNot: "a header name and an absolute path", accepted: accepted)
            }
            return text
        } format: {
            $0
        }
    }
}

extension SettingValue where Value == Set<Summary> {
    /// Summaries by their status names, separated by commas or blanks.
    static var summaries: Self {
        let names = Summary.allCases.map(\.description)
        let accepted = "summaries separated by commas: " + WordList.joined(names)
        return SettingValue(placeholder: "SUMMARY…", accepted: accepted) { text throws(SettingValueError) in
            var summaries = Set<Summary>()
            for word in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init) {
                guard let summary = Summary(word) else {
                    let hint = NearestName.nearest(to: word, in: names).map { " (did you mean \($0)?)" } ?? ""
                    throw SettingValueError("unknown summary \(word)\(hint); write \(accepted)")
                }
                summaries.insert(summary)
            }
            guard !summaries.isEmpty else { throw SettingValueError("empty; write \(accepted)") }
            return summaries
        } format: {
            $0.sorted().map(\.description).joined(separator: ", ")
        }
    }
}

extension String {
    /// Without blanks at either end.
    fileprivate func trimmingBlanks() -> String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
