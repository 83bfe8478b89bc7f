/// One network interface of the host, as rtnetlink reports it: what the host network view needs
/// to know about it (docs/operations.md, "Host network view").
public struct HostLink: Equatable, Sendable {
    /// The kernel's interface index, which routes name.
    public var index: Int32
    public var name: String
    /// `IFF_UP`: administratively up.
    public var isUp: Bool
    /// `IFF_RUNNING`: operationally up. The kernel sets it when the operational state is `up`,
    /// or `unknown` for devices with no carrier of their own (WireGuard, a tun device whose
    /// program holds it, loopback); a cable pulled, a Wi-Fi association lost or a veth whose
    /// peer is down clears it.
    public var isRunning: Bool
    /// `IFF_LOOPBACK`.
    public var isLoopback: Bool
    /// The link kind (`IFLA_INFO_KIND`: `veth`, `wireguard`, `vrf`, …), when the kernel names
    /// one; physical devices have none. Only for log entries: no rule depends on it.
    public var kind: String?

    public init(index: Int32, name: String, isUp: Bool, isRunning: Bool, isLoopback: Bool = false, kind: String? = nil) {
        self.index = index
        self.name = name
        self.isUp = isUp
        self.isRunning = isRunning
        self.isLoopback = isLoopback
        self.kind = kind
    }

    /// Traffic can leave through it: up with carrier (or with no carrier notion), and not the
    /// loopback, which reaches nothing but the host itself.
    public var carriesTraffic: Bool {
        self.isUp && self.isRunning && !self.isLoopback
    }
}
