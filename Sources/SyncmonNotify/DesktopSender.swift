import SyncmonCore
import SyncmonLock
import SyncmonSystemd

/// Delivers a route's notifications to the desktop (`desktop = yes`, docs/notifications.md):
/// `Notify` on the session bus of the user the daemon runs as (docs/user-sessions.md). A
/// notification for a pair replaces that pair's earlier one (`replaces_id`), so a pair that
/// fires and resolves leaves one notification on the screen, not two. The ids live as long as
/// the daemon: after a restart a pair's next notification is a new one.
///
/// Blocking (sd-bus): called on the senders' thread pool, never on an event loop.
final class DesktopSender: Sendable {
    /// The server's id of each pair's last notification, by `ENGINE/DATABASE`.
    private let shown = Locked<[String: UInt32]>([:])

    /// The summaries shown as critical (the urgency the specification gives failures); the rest
    /// are normal, and a resolution is normal too.
    static let critical: Set<String> = ["error", "stalled", "engine_down"]

    func send(_ message: NotificationMessage, timeoutSeconds: Double) -> DeliveryOutcome {
        let key = message.pairs.first.map { $0.engine + "/" + $0.database } ?? "test"
        let urgency: DesktopNotification.Urgency =
            message.event == "firing" && message.pairs.contains { Self.critical.contains($0.summary) } ? .critical : .normal
        var notification = DesktopNotification(
            summary: message.title, body: message.body, urgency: urgency,
            replacesID: self.shown.withLock { $0[key] ?? 0 }, link: message.pairs.first.map(\.url).flatMap { $0.isEmpty ? nil : $0 })
        notification.expireTimeout = urgency == .critical ? 0 : -1
        do {
            let bus = try DesktopNotificationBus(timeoutMicroseconds: UInt64(max(1, timeoutSeconds) * 1_000_000))
            let id = try bus.notify(notification, capabilities: (try? bus.capabilities()) ?? [])
            self.shown.withLock { $0[key] = id }
            return .delivered
        } catch {
            return .failed(error.description)
        }
    }
}
