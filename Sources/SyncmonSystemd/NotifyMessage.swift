/// One state change the service manager is told about with `sd_notify` (docs/operations.md#systemd).
///
/// Only keys systemd 252 (Debian 12) understands are offered: `MONOTONIC_USEC` and `Type=notify-reload` need 253.
public enum NotifyMessage: Sendable, Hashable {
    /// Startup or a reload finished: `READY=1`.
    case ready
    /// A configuration reload began: `RELOADING=1`; must be followed by ``ready``.
    case reloading
    /// Shutdown began: `STOPPING=1`.
    case stopping
    /// The event loop is healthy: `WATCHDOG=1`.
    case watchdog
    /// One line for `systemctl status`: `STATUS=…`.
    case status(String)

    /// The `KEY=VALUE` line for this message.
    ///
    /// A status is one line by protocol (the payload is newline-separated), so line breaks and other control
    /// characters in it become spaces rather than splitting it into bogus assignments.
    public var assignment: String {
        switch self {
        case .ready: "READY=1"
        case .reloading: "RELOADING=1"
        case .stopping: "STOPPING=1"
        case .watchdog: "WATCHDOG=1"
        case .status(let text): "STATUS=" + Self.singleLine(text)
        }
    }

    /// The datagram payload for several messages sent together, one assignment per line.
    public static func payload(_ messages: [NotifyMessage]) -> String {
        messages.map(\.assignment).joined(separator: "\n")
    }

    /// `text` with every control character replaced by a space.
    static func singleLine(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let isControl =
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}"
            result.unicodeScalars.append(isControl ? " " : scalar)
        }
        return result
    }
}
