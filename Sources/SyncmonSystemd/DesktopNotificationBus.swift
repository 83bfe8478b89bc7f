import CSystemd
import Glibc

/// A connection to the session bus of the user the daemon runs as, speaking to the desktop's
/// notification server (`org.freedesktop.Notifications` at `/org/freedesktop/Notifications`):
/// `GetCapabilities` and `Notify`. Opened per delivery by the desktop route, whose deliveries run
/// on a thread of their own: every call here blocks for at most `timeout`.
///
/// sd-bus's variadic calls cannot be called from Swift, so messages are built one value at a time.
/// sd-bus is not thread-safe: one instance is used by one thread.
public final class DesktopNotificationBus {
    private var bus: OpaquePointer?
    /// How long a call may take: a server that never answers is a failed delivery.
    private let timeoutMicroseconds: UInt64

    static let destination = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// Opens the session bus: `address` when given (tests), else `$DBUS_SESSION_BUS_ADDRESS`,
    /// else `$XDG_RUNTIME_DIR/bus`, as sd-bus finds a user's bus.
    public init(address: String? = nil, timeoutMicroseconds: UInt64 = 5_000_000) throws(SystemdError) {
        self.timeoutMicroseconds = timeoutMicroseconds
        var bus: OpaquePointer? = nil
        var result: Int32
        if let address {
            result = sd_bus_new(&bus)
            if result >= 0 { result = sd_bus_set_address(bus, address) }
            if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
            if result >= 0 { result = sd_bus_start(bus) }
        } else {
            result = sd_bus_open_user(&bus)
        }
        guard result >= 0, let bus else {
            sd_bus_unref(bus)
            throw SystemdError(operation: "sd_bus_open_user", returnValue: result, explanation: Self.cannotOpen(errno: -result))
        }
        self.bus = bus
    }

    deinit {
        sd_bus_flush_close_unref(self.bus)
    }

    /// Why the session bus cannot be reached, in words with the fix.
    static func cannotOpen(errno code: Int32) -> String {
        let reason = strerror(code).map { String(cString: $0) } ?? "errno \(code)"
        return "cannot connect to the session bus (\(reason)): desktop notifications need the user's session bus;"
            + " run syncmon as a user service (docs/user-sessions.md) or set DBUS_SESSION_BUS_ADDRESS"
    }

    /// `GetCapabilities()`: what the server renders (`body-markup`, `body-hyperlinks`, `actions`, …).
    public func capabilities() throws(SystemdError) -> Set<String> {
        let message = try self.methodCall("GetCapabilities")
        defer { sd_bus_message_unref(message) }
        let reply = try self.call(message, member: "GetCapabilities")
        defer { sd_bus_message_unref(reply) }
        var capabilities: Set<String> = []
        var result = sd_bus_message_enter_container(reply, Self.type("a"), "s")
        guard result > 0 else { throw SystemdError(operation: "GetCapabilities reply", returnValue: result < 0 ? result : -EBADMSG) }
        while true {
            var value: UnsafePointer<CChar>? = nil
            result = sd_bus_message_read_basic(reply, Self.type("s"), &value)
            guard result > 0, let value else { break }
            capabilities.insert(String(cString: value))
        }
        sd_bus_message_exit_container(reply)
        return capabilities
    }

    /// `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`:
    /// returns the server's id for the notification, which a later one for the same pair replaces.
    public func notify(_ notification: DesktopNotification, capabilities: Set<String>) throws(SystemdError) -> UInt32 {
        let message = try self.methodCall("Notify")
        defer { sd_bus_message_unref(message) }
        var result: Int32 = 0
        var replaces = notification.replacesID
        var timeout = notification.expireTimeout
        result = Self.append(message, "s", notification.appName)
        if result >= 0 { result = sd_bus_message_append_basic(message, Self.type("u"), &replaces) }
        if result >= 0 { result = Self.append(message, "s", "dialog-warning") }
        if result >= 0 { result = Self.append(message, "s", notification.summary) }
        if result >= 0 { result = Self.append(message, "s", notification.renderedBody(capabilities: capabilities)) }
        if result >= 0 { result = Self.appendActions(message, link: capabilities.contains("actions") ? notification.link : nil) }
        if result >= 0 { result = Self.appendHints(message, notification) }
        if result >= 0 { result = sd_bus_message_append_basic(message, Self.type("i"), &timeout) }
        guard result >= 0 else { throw SystemdError(operation: "building Notify", returnValue: result) }
        let reply = try self.call(message, member: "Notify")
        defer { sd_bus_message_unref(reply) }
        var id: UInt32 = 0
        result = sd_bus_message_read_basic(reply, Self.type("u"), &id)
        guard result > 0 else { throw SystemdError(operation: "Notify reply", returnValue: result < 0 ? result : -EBADMSG) }
        return id
    }

    /// `as`: the default action (a click on the notification) named for the pair's page.
    private static func appendActions(_ message: OpaquePointer, link: String?) -> Int32 {
        var result = sd_bus_message_open_container(message, Self.type("a"), "s")
        if result >= 0, link != nil {
            result = Self.append(message, "s", "default")
            if result >= 0 { result = Self.append(message, "s", "Open the page") }
        }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        return result
    }

    /// `a{sv}`: `urgency` (a byte), `category` (`transfer.error`) and `desktop-entry`.
    private static func appendHints(_ message: OpaquePointer, _ notification: DesktopNotification) -> Int32 {
        var result = sd_bus_message_open_container(message, Self.type("a"), "{sv}")
        var urgency = notification.urgency.rawValue
        if result >= 0 { result = sd_bus_message_open_container(message, Self.type("e"), "sv") }
        if result >= 0 { result = Self.append(message, "s", "urgency") }
        if result >= 0 { result = sd_bus_message_open_container(message, Self.type("v"), "y") }
        if result >= 0 { result = sd_bus_message_append_basic(message, Self.type("y"), &urgency) }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        for (key, value) in [("category", notification.urgency == .low ? "transfer.complete" : "transfer.error"), ("desktop-entry", "syncmon")] {
            if result >= 0 { result = sd_bus_message_open_container(message, Self.type("e"), "sv") }
            if result >= 0 { result = Self.append(message, "s", key) }
            if result >= 0 { result = sd_bus_message_open_container(message, Self.type("v"), "s") }
            if result >= 0 { result = Self.append(message, "s", value) }
            if result >= 0 { result = sd_bus_message_close_container(message) }
            if result >= 0 { result = sd_bus_message_close_container(message) }
        }
        if result >= 0 { result = sd_bus_message_close_container(message) }
        return result
    }

    private func methodCall(_ member: String) throws(SystemdError) -> OpaquePointer {
        var message: OpaquePointer? = nil
        let result = sd_bus_message_new_method_call(self.bus, &message, Self.destination, Self.path, Self.destination, member)
        guard result >= 0, let message else { throw SystemdError(operation: "sd_bus_message_new_method_call", returnValue: result) }
        return message
    }

    /// Sends `message` and waits for the reply; a bus error (no notification server:
    /// `org.freedesktop.DBus.Error.ServiceUnknown`) is thrown with its name and words.
    private func call(_ message: OpaquePointer, member: String) throws(SystemdError) -> OpaquePointer {
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer? = nil
        let result = sd_bus_call(self.bus, message, self.timeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else {
            let name = error.name.map { String(cString: $0) }
            let words = error.message.map { String(cString: $0) }
            let explanation =
                name == "org.freedesktop.DBus.Error.ServiceUnknown"
                ? "no notification server on the session bus (\(words ?? "")): start the desktop's, or a standalone one such as dunst"
                : name.map { "\(member) failed: \($0)\(words.map { ": " + $0 } ?? "")" }
            throw SystemdError(operation: member, returnValue: result < 0 ? result : -EBADMSG, explanation: explanation)
        }
        return reply
    }

    private static func append(_ message: OpaquePointer, _ type: Unicode.Scalar, _ text: String) -> Int32 {
        text.withCString { sd_bus_message_append_basic(message, Self.type(type), $0) }
    }

    static func type(_ character: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: character.value) }
}
