/// Where syncmon's files are when nothing says otherwise (docs/protocol.md#transports,
/// docs/operations.md#systemd, docs/user-sessions.md): the daemon's push socket, state
/// directory and configuration file, and where a client (the library, `emit`, `wrap`,
/// `simulate`, `status`, `forget`) looks for the daemon. Both sides in one place, so that a
/// client finds a daemon started with the defaults — a user's own daemon before the system's.
public enum DefaultPaths {
    /// The push socket of a system daemon (root, or systemd's `RuntimeDirectory=syncmon`).
    public static let systemEventsSocket = "/run/syncmon/events.sock"
    /// The state directory of a system daemon.
    public static let systemStateDirectory = "/var/lib/syncmon"
    /// The configuration file of a system daemon.
    public static let systemConfigFile = "/etc/syncmon/syncmon.conf"
    /// The HTTP address a daemon serves when not told (`--listen`).
    public static let listenAddress = "127.0.0.1:9478"
    /// The status API's URL when no daemon has said where it listens.
    public static let statusURL = "http://" + listenAddress
    /// The file beside the push socket where a running daemon writes the URL of its first HTTP
    /// listener, so that `syncmon status` finds a user daemon that had to take another port.
    public static let listenURLFile = "http-url"

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

    /// The configuration files a daemon reads when not told (`--config`), the first readable
    /// one wins: as root the system's; otherwise the user's own
    /// (`$XDG_CONFIG_HOME/syncmon/syncmon.conf`, or under `~/.config`) and then the system's,
    /// which a system service running as the user `syncmon` reads.
    public static func configFiles(environment: [String: String], isRoot: Bool) -> [String] {
        if isRoot { return [Self.systemConfigFile] }
        let configHome = Self.nonEmpty(environment["XDG_CONFIG_HOME"]) ?? Self.nonEmpty(environment["HOME"]).map { $0 + "/.config" }
        return (configHome.map { [$0 + "/syncmon/syncmon.conf"] } ?? []) + [Self.systemConfigFile]
    }

    /// Where a client finds the daemon when not told: `$SYNCMON_EVENTS_SOCKET` when set; else
    /// the system path as root; else the user's own daemon's when its socket exists, the
    /// system's when that exists, and the user's path when neither does.
    public static func clientEventsSocket(
        environment: (String) -> String?,
        isRoot: Bool,
        userID: UInt32,
        exists: (String) -> Bool
    ) -> String {
        if let explicit = environment("SYNCMON_EVENTS_SOCKET"), !explicit.isEmpty { return explicit }
        if isRoot { return Self.systemEventsSocket }
        let user = Self.userEventsSocket(runtime: Self.nonEmpty(environment("XDG_RUNTIME_DIR")), userID: userID)
        if !exists(user) && exists(Self.systemEventsSocket) { return Self.systemEventsSocket }
        return user
    }

    /// The status API's URL when not told (`--url`): what the daemon whose push socket a client
    /// would use wrote beside it (``listenURLFile``), else ``statusURL``. `read` returns a
    /// file's first line, nil when it cannot be read.
    public static func clientStatusURL(
        environment: (String) -> String?,
        isRoot: Bool,
        userID: UInt32,
        exists: (String) -> Bool,
        read: (String) -> String?
    ) -> String {
        let socket = Self.clientEventsSocket(environment: environment, isRoot: isRoot, userID: userID, exists: exists)
        guard let slash = socket.lastIndex(of: "/") else { return Self.statusURL }
        let line = read(socket[..<slash] + "/" + Self.listenURLFile)?.split(whereSeparator: \.isWhitespace).first
        guard let line, line.hasPrefix("http://") || line.hasPrefix("https://") else { return Self.statusURL }
        return String(line)
    }

    /// A variable's value unless it is unset or empty (which the XDG rules treat alike).
    private static func nonEmpty(_ value: String?) -> String? {
        value?.isEmpty == false ? value : nil
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
