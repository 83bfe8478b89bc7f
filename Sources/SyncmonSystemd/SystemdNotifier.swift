import CSystemd
import Glibc

/// Tells the service manager about the daemon's state through `sd_notify`, and reads the watchdog interval.
///
/// Under `Type=notify` systemd waits for ``NotifyMessage/ready``; outside systemd (`NOTIFY_SOCKET` unset) every call
/// is a cheap no-op, so the daemon can notify unconditionally.
public struct SystemdNotifier: Sendable {
    /// The environment variable naming the service manager's notification socket.
    public static let notifySocketVariable = "NOTIFY_SOCKET"

    /// Creates a notifier; it holds no state, libsystemd reads `NOTIFY_SOCKET` at each call.
    public init() {}

    /// Whether a service manager is listening (`NOTIFY_SOCKET` is set).
    public var isEnabled: Bool {
        guard let value = getenv(Self.notifySocketVariable) else { return false }
        return value.pointee != 0
    }

    /// Sends `messages` in one datagram.
    ///
    /// `NOTIFY_SOCKET` is left in the environment (`unset_environment` 0) because the daemon notifies for its whole
    /// life, not only once at startup.
    ///
    /// - Returns: `true` when sent, `false` when no service manager listens or `messages` is empty.
    /// - Throws: ``SystemdError`` when the socket is set but the datagram could not be sent.
    @discardableResult
    public func notify(_ messages: [NotifyMessage]) throws(SystemdError) -> Bool {
        guard !messages.isEmpty else { return false }
        let result = sd_notify(0, NotifyMessage.payload(messages))
        if result < 0 {
            throw SystemdError(operation: "sd_notify", returnValue: result)
        }
        return result > 0
    }

    /// Sends `messages` in one datagram; see ``notify(_:)-([NotifyMessage])``.
    @discardableResult
    public func notify(_ messages: NotifyMessage...) throws(SystemdError) -> Bool {
        try self.notify(messages)
    }

    /// How often to send ``NotifyMessage/watchdog``: half of `WATCHDOG_USEC`, or `nil` when the watchdog is off or
    /// meant for another process (`WATCHDOG_PID`).
    ///
    /// - Throws: ``SystemdError`` when `WATCHDOG_USEC` or `WATCHDOG_PID` is malformed.
    public func watchdogInterval() throws(SystemdError) -> Duration? {
        var microseconds: UInt64 = 0
        let result = sd_watchdog_enabled(0, &microseconds)
        if result < 0 {
            throw SystemdError(operation: "sd_watchdog_enabled", returnValue: result)
        }
        guard result > 0 else { return nil }
        return Self.keepAliveInterval(watchdogTimeoutMicroseconds: microseconds)
    }

    /// The keep-alive interval for a watchdog timeout: half of it, as sd_watchdog_enabled(3) recommends, so one late
    /// ping does not get the daemon killed.
    public static func keepAliveInterval(watchdogTimeoutMicroseconds: UInt64) -> Duration {
        .microseconds(watchdogTimeoutMicroseconds / 2)
    }
}
