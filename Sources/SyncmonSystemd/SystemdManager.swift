import Glibc

/// Which systemd manager a `unit:` source follows (docs/user-sessions.md): the system's, the
/// user manager of the user syncmon runs as (syncmon as a user service), or a named user's
/// (a system syncmon's `user = NAME`). It picks the bus to open and the journal fields that
/// name the unit's lines.
public enum SystemdManager: Sendable, Hashable {
    /// PID 1: the system bus, lines under `_SYSTEMD_UNIT`.
    case system
    /// The user manager of this process's own user.
    case currentUser
    /// The user manager of the user `name` (`user@UID.service`).
    case user(name: String, uid: UInt32)

    /// The manager a source without `user` follows: the own user's when syncmon runs as a
    /// user's service (not root, with the `$XDG_RUNTIME_DIR` a user manager sets), else the system's.
    public static func ambient(userID: UInt32, environment: [String: String]) -> SystemdManager {
        guard userID != 0, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return .system }
        return .currentUser
    }

    /// The uid whose user manager this is; `nil` for the system's.
    public var userID: UInt32? {
        switch self {
        case .system: nil
        case .currentUser: getuid()
        case .user(_, let uid): uid
        }
    }

    /// The manager's private socket: a user manager accepts its own user and root there, with
    /// no bus daemon in between (systemctl uses it too), so neither dbus-user-session nor a
    /// session bus is needed.
    public var privateSocket: String? {
        switch self {
        case .system: nil
        case .currentUser:
            if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
                runtime + "/systemd/private"
            } else {
                "/run/user/\(getuid())/systemd/private"
            }
        case .user(_, let uid): "/run/user/\(uid)/systemd/private"
        }
    }

    /// The journal matches of `unit`'s own lines.
    public func journalMatches(unit: String) -> [String] {
        guard let uid = self.userID else { return ["_SYSTEMD_UNIT=\(unit)"] }
        return ["_SYSTEMD_USER_UNIT=\(unit)", "_UID=\(uid)"]
    }

    /// How it is named in logs and status: `system`, or `user NAME`.
    public var label: String {
        switch self {
        case .system: "system"
        case .currentUser: "user \(getuid())"
        case .user(let name, _): "user \(name)"
        }
    }
}
