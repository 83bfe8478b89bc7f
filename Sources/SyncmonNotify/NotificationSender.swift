import NIOPosix
import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// Delivers messages through one route's target (docs/notifications.md), each with the route's
/// timeout: commands and sendmail on a thread pool of their own (they block), webhooks through
/// AsyncHTTPClient. Nothing here touches an event loop's thread or the cooperative pool for long.
public final class NotificationSender: Sendable {
    public let route: NotificationRouteConfiguration
    private let pool: NIOThreadPool
    private let webhook: WebhookSender?
    private let desktop = DesktopSender()

    /// `pool` runs the commands; shared by every route's sender.
    public init(route: NotificationRouteConfiguration, pool: NIOThreadPool) throws {
        self.route = route
        self.pool = pool
        if case .webhook(let target) = route.target { self.webhook = try WebhookSender(target) } else { self.webhook = nil }
    }

    /// Delivers `message`, or says why not.
    public func send(_ message: NotificationMessage) async -> DeliveryOutcome {
        let timeout = Double(self.route.timeout.microseconds) / 1e6
        switch self.route.target {
        case .command(let argv):
            let (input, environment) = (message.json + [UInt8(ascii: "\n")], message.environment)
            return await self.blocking { CommandRunner.run(argv, input: input, environment: environment, timeout: timeout) }
        case .mail(let to, let from, let sendmail):
            guard access(sendmail, X_OK) == 0 else { return .failed("\(sendmail) is missing (install an MTA: exim4, postfix or msmtp-mta)") }
            let text = MailMessage.render(title: message.title, body: message.body, from: from, to: to, event: message.event)
            return await self.blocking {
                CommandRunner.run([sendmail, "-t", "-oi"], input: Array(text.utf8), environment: message.environment, timeout: timeout)
            }
        case .webhook:
            return await self.webhook?.send(message.json, timeout: timeout) ?? .failed("no webhook client")
        case .desktop:
            let desktop = self.desktop
            return await self.blocking { desktop.send(message, timeoutSeconds: timeout) }
        }
    }

    public func shutdown() async {
        await self.webhook?.shutdown()
    }

    private func blocking(_ body: @escaping @Sendable () -> DeliveryOutcome) async -> DeliveryOutcome {
        do {
            return try await self.pool.runIfActive(body)
        } catch {
            return .failed("not run: the daemon is stopping")
        }
    }
}
