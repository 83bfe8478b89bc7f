import SyncmonCore

/// One route as the daemon runs it (docs/notifications.md): its name, when it fires
/// (`NotificationPolicy`), where it delivers, how long a delivery may take, and the status page
/// its notifications link to.
public struct NotificationRouteConfiguration: Sendable {
    public static let defaultTimeout = TimeSpan.seconds(Int64(30))

    public var name: String
    public var policy: NotificationPolicy
    public var target: NotificationTarget
    public var timeout: TimeSpan
    public var pageURL: String?

    public init(
        name: String, policy: NotificationPolicy, target: NotificationTarget, timeout: TimeSpan = NotificationRouteConfiguration.defaultTimeout,
        pageURL: String? = nil
    ) {
        self.name = name
        self.policy = policy
        self.target = target
        self.timeout = timeout
        self.pageURL = pageURL
    }

    /// Route names: 1–64 characters of `[A-Za-z0-9._-]`.
    public static func isValidName(_ name: String) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-".utf8)
        return (1...64).contains(name.utf8.count) && name.utf8.allSatisfy(allowed.contains)
    }
}
