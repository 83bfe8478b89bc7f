/// Where syncmon's files are when nothing says otherwise (docs/protocol.md#transports,
/// docs/operations.md#systemd): the daemon's push socket and state directory, and where a
/// client (the library, `emit`, `wrap`, `simulate`) looks for that socket. Both sides in one
/// place, so that a client finds a daemon started with the defaults.
public enum DefaultPaths {
    /// The push socket of a system daemon (root, or systemd's `RuntimeDirectory=syncmon`).
    public static let systemEventsSocket = "/run/syncmon/events.sock"
    /// The state directory of a system daemon.
    public static let systemStateDirectory = "/var/lib/syncmon"

    /// The daemon's push socket: systemd's `$RUNTIME_DIRECTORY` first, then the system path as
    /// root, then the user's `$XDG_RUNTIME_DIR` (or `/tmp/syncmon-UID` without it).
    public static func daemonEventsSocket(environment: [String: String], isRoot: Bool, userID: UInt32) -> String {
        if let runtime = Self.first(environment["RUNTIME_DIRECTORY"]) { return runtime + "/events.sock" }
        if isRoot { return Self.systemEventsSocket }
        return Self.userEventsSocket(runtime: environment["XDG_RUNTIME_DIR"], userID: userID)
    }

    /// The daemon's state directory: systemd's `$STATE_DIRECTORY` first, then the system path
    /// as root, then the user's `$XDG_STATE_HOME` (or `~/.local/state`).
    public static func stateDirectory(environment: [String: String], isRoot: Bool) -> String {
        if let state = Self.first(environment["STATE_DIRECTORY"]) { return state }
        if isRoot { return Self.systemStateDirectory }
        return (environment["XDG_STATE_HOME"] ?? (environment["HOME"] ?? "/tmp") + "/.local/state") + "/syncmon"
    }

    /// Where a client finds the daemon when not told: `$SYNCMON_EVENTS_SOCKET` when set; else
    /// the system path as root or when it exists (a system daemon); else the user's daemon's.
    public static func clientEventsSocket(
        environment: (String) -> String?,
        isRoot: Bool,
        userID: UInt32,
        exists: (String) -> Bool
    ) -> String {
        if let explicit = environment("SYNCMON_EVENTS_SOCKET"), !explicit.isEmpty { return explicit }
        if isRoot || exists(Self.systemEventsSocket) { return Self.systemEventsSocket }
        let runtime = environment("XDG_RUNTIME_DIR")
        return Self.userEventsSocket(runtime: runtime?.isEmpty == false ? runtime : nil, userID: userID)
    }

    /// A user's daemon's socket: under `$XDG_RUNTIME_DIR`, or `/tmp/syncmon-UID` without it.
    private static func userEventsSocket(runtime: String?, userID: UInt32) -> String {
        (runtime ?? "/tmp/syncmon-\(userID)") + "/syncmon/events.sock"
    }

    /// The first of the colon-separated directories systemd passes when a unit lists several.
    private static func first(_ value: String?) -> String? {
        value.flatMap { $0.split(separator: ":").first.map(String.init) }
    }
}
