/// One canary's settings (`--canary ENGINE/DATABASE=PATH`, `[canary ENGINE/DATABASE]`).
public struct CanaryConfiguration: Hashable, Sendable {
    /// The folder the engine syncs; the canary lives in `PATH/.syncmon/`.
    public var path: String
    /// This host's name in the canary.
    public var host: CanaryHost
    /// How often this host writes its canary, and reads the peers' at the latest.
    public var interval: TimeSpan
    /// `T` of `canary_late`; zero disables the stall (moves and round trips are still measured).
    public var lateAfter: TimeSpan
    public var mode: CanaryMode
    /// The most peers followed; more are ignored and counted (`peer_limit`).
    public var maximumPeers: Int
    /// A peer not heard from (its canary not moving) for this long is forgotten.
    public var forgetAfter: TimeSpan

    /// The defaults of docs/canary.md: every 60 s, late after 10 min, both ways, 32 peers, 7 days.
    public static let defaultInterval = TimeSpan.seconds(60 as Int64)
    public static let defaultLateAfter = TimeSpan.seconds(600 as Int64)
    public static let defaultMaximumPeers = 32
    public static let defaultForgetAfter = TimeSpan.seconds(7 * 86_400 as Int64)

    public init(
        path: String,
        host: CanaryHost,
        interval: TimeSpan = Self.defaultInterval,
        lateAfter: TimeSpan = Self.defaultLateAfter,
        mode: CanaryMode = .both,
        maximumPeers: Int = Self.defaultMaximumPeers,
        forgetAfter: TimeSpan = Self.defaultForgetAfter
    ) {
        self.path = path
        self.host = host
        self.interval = interval
        self.lateAfter = lateAfter
        self.mode = mode
        self.maximumPeers = maximumPeers
        self.forgetAfter = forgetAfter
    }
}
