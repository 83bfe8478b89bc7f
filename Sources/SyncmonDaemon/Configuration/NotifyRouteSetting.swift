import SyncmonCore
import SyncmonNotify

#if canImport(Glibc)
import Glibc
#endif

/// What one `[notify NAME]` section says (docs/notifications.md): each key as written, unset
/// ones `nil`. ``resolve(_:lines:)`` checks the section as a whole (exactly one target, a
/// command that can run) and fills in the defaults, at load and on every reload.
package struct NotifyRouteSetting: Sendable, Hashable {
    package var command: [String]?
    package var mailTo: [String]?
    package var webhook: String?
    package var desktop: Bool?
    package var webhookHeaders: [String] = []
    package var webhookHeaderFiles: [String] = []
    package var webhookCAFile: String?
    package var sendmail: String?
    package var mailFrom: String?
    package var when: Set<Summary>?
    package var engines: [String]?
    package var hold: TimeSpan?
    package var resolved: Bool?
    package var repeatInterval: TimeSpan?
    package var group: TimeSpan?
    package var rateLimit: Int?
    package var timeout: TimeSpan?
    package var pageURL: String?

    package init() {}

    /// Every route, checked and with its defaults: sorted by name. The error names the
    /// section's line (from `lines`, the headers' lines by `notify NAME`) and what to write.
    package static func resolve(_ sections: [String: NotifyRouteSetting], lines: [String: Int] = [:]) throws(NotifySettingError)
        -> [NotificationRouteConfiguration]
    {
        var routes: [NotificationRouteConfiguration] = []
        for (name, setting) in sections.sorted(by: { $0.key < $1.key }) {
            let place = (lines["notify \(name)"].map { "line \($0): " } ?? "") + "[notify \(name)]"
            do throws(NotifySettingError) {
                routes.append(try setting.route(named: name))
            } catch {
                throw NotifySettingError("\(place): \(error.description)")
            }
        }
        return routes
    }

    /// This section as a route.
    func route(named name: String) throws(NotifySettingError) -> NotificationRouteConfiguration {
        var targets: [String] = []
        if self.command != nil { targets.append("command") }
        if self.mailTo != nil { targets.append("mail-to") }
        if self.webhook != nil { targets.append("webhook") }
        if self.desktop == true { targets.append("desktop") }
        guard targets.count == 1 else {
            throw NotifySettingError(
                targets.isEmpty
                    ? "no target: set one of command, mail-to, webhook or desktop = yes"
                    : "\(targets.count) targets (\(WordList.joined(targets, "and"))): a route has exactly one; write another [notify NAME] section for each")
        }
        let target: NotificationTarget
        if let command = self.command {
            if let problem = Self.executableProblem(command[0]) { throw NotifySettingError("command: \(problem)") }
            target = .command(command)
        } else if let mailTo = self.mailTo {
            let sendmail = self.sendmail ?? "/usr/sbin/sendmail"
            target = .mail(to: mailTo, from: self.mailFrom ?? "syncmon@\(NotificationHost.name)", sendmail: sendmail)
        } else if let webhook = self.webhook {
            var headers: [(String, String)] = []
            for header in self.webhookHeaders {
                guard let parsed = WebhookHeader.parse(header) else { throw NotifySettingError("webhook-header: \(header) is not Name: value") }
                headers.append(parsed)
            }
            var files: [(String, String)] = []
            for header in self.webhookHeaderFiles {
                guard let parsed = WebhookHeader.parse(header) else { throw NotifySettingError("webhook-header-file: \(header) is not Name: /path") }
                guard access(parsed.1, R_OK) == 0 else { throw NotifySettingError("webhook-header-file: cannot read \(parsed.1)") }
                files.append(parsed)
            }
            if let ca = self.webhookCAFile, access(ca, R_OK) != 0 { throw NotifySettingError("webhook-ca-file: cannot read \(ca)") }
            target = .webhook(WebhookTarget(url: webhook, headers: headers, headerFiles: files, caFile: self.webhookCAFile))
        } else if self.desktop == true {
            target = .desktop
        } else {
            throw NotifySettingError("desktop = no is no target: set one of command, mail-to, webhook or desktop = yes")
        }
        let defaults = NotificationPolicy.defaults
        let policy = NotificationPolicy(
            when: self.when ?? defaults.when,
            engines: (self.engines ?? []).map(PairPattern.init),
            hold: self.hold ?? defaults.hold,
            sendsResolved: self.resolved ?? defaults.sendsResolved,
            repeatInterval: self.repeatInterval.map { $0 == .zero ? nil : $0 } ?? defaults.repeatInterval,
            group: self.group ?? defaults.group,
            ratePerHour: self.rateLimit ?? defaults.ratePerHour
        )
        return NotificationRouteConfiguration(
            name: name, policy: policy, target: target, timeout: self.timeout ?? NotificationRouteConfiguration.defaultTimeout, pageURL: self.pageURL)
    }

    /// Why `path` cannot be run as a command, or nil when it can: an absolute path to a
    /// regular file this user may execute.
    static func executableProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is a relative path; write the command's absolute path (syncmon searches no PATH)" }
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "\(path) is not a regular file" }
        // Root passes access(X_OK) for any file with one execute bit; none at all is no program.
        guard info.st_mode & 0o111 != 0, access(path, X_OK) == 0 else { return "\(path) is not executable (chmod +x, or name the interpreter first)" }
        return nil
    }
}

/// A `[notify …]` section that cannot be taken.
package struct NotifySettingError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
