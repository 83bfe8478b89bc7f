/// The host's own view of its network: online while a default route, IPv4 or IPv6, runs through
/// an interface that carries traffic (docs/operations.md, "Host network view").
///
/// A pure decision over the link and route tables, so every rule is tested on plain values.
public struct HostNetworkView: Equatable, Sendable {
    public var isOnline: Bool
    /// The interfaces the default coverage runs through, by name, sorted: for the log entry.
    public var interfaces: [String]

    public init(isOnline: Bool, interfaces: [String] = []) {
        self.isOnline = isOnline
        self.interfaces = interfaces
    }

    /// The network condition pairs take from it.
    public var status: NetworkStatus {
        self.isOnline ? .available : .unavailable
    }

    /// Decides from the tables.
    ///
    /// The rules, each for a reason:
    /// - Only unicast routes count: a blackhole, unreachable or prohibit default carries nothing.
    /// - Only the `main` and `default` tables count: those the kernel's default rules consult
    ///   for a process in no VRF, as syncmon is. A VRF's table serves programs run in that VRF;
    ///   a policy table (WireGuard's `wg-quick`, Tailscale) holds the tunnel's default while
    ///   `main` keeps the path the tunnel itself needs, so `main` answers for both.
    /// - A route counts through any of its next hops whose interface carries traffic: up and
    ///   running, not loopback. A tunnel (WireGuard, tun) counts while it is up: it has no
    ///   carrier of its own, and the kernel reports it running.
    /// - Default coverage is the whole IPv4 space, or IPv6's global unicast space (2000::/3),
    ///   covered by such routes of at most 8 prefix bits: a default route, or the halves
    ///   `0.0.0.0/1` + `128.0.0.0/1` (and OpenVPN's IPv6 `::/3` + `2000::/4` + `3000::/4`) that
    ///   tunnels install to override a default without replacing it.
    public static func decide(links: [Int32: HostLink], routes: some Sequence<HostRoute>) -> HostNetworkView {
        var coverage = (ipv4: FirstByteSet(), ipv6: FirstByteSet())
        var through = (ipv4: Set<String>(), ipv6: Set<String>())
        for route in routes where route.mayCoverDefault {
            let names = route.interfaces.compactMap { index in
                links[index].flatMap { $0.carriesTraffic ? $0.name : nil }
            }
            guard !names.isEmpty else { continue }
            switch route.family {
            case .ipv4:
                coverage.ipv4.insert(route.firstByteRange)
                through.ipv4.formUnion(names)
            case .ipv6:
                coverage.ipv6.insert(route.firstByteRange)
                through.ipv6.formUnion(names)
            }
        }
        let ipv4 = coverage.ipv4.contains(0...255)
        // 2000::/3: first bytes 0x20 … 0x3f.
        let ipv6 = coverage.ipv6.contains(0x20...0x3F)
        var interfaces = Set<String>()
        if ipv4 { interfaces.formUnion(through.ipv4) }
        if ipv6 { interfaces.formUnion(through.ipv6) }
        return HostNetworkView(isOnline: ipv4 || ipv6, interfaces: interfaces.sorted())
    }
}

/// A set of byte values (256 bits): which leading bytes of the address space routes cover.
struct FirstByteSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ range: ClosedRange<UInt8>) {
        for value in range { self.insert(value) }
    }

    private mutating func insert(_ value: UInt8) {
        let bit = UInt64(1) << UInt64(value & 63)
        switch value >> 6 {
        case 0: self.words.0 |= bit
        case 1: self.words.1 |= bit
        case 2: self.words.2 |= bit
        default: self.words.3 |= bit
        }
    }

    func contains(_ value: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(value & 63)
        switch value >> 6 {
        case 0: return self.words.0 & bit != 0
        case 1: return self.words.1 & bit != 0
        case 2: return self.words.2 & bit != 0
        default: return self.words.3 & bit != 0
        }
    }

    func contains(_ range: ClosedRange<UInt8>) -> Bool {
        range.allSatisfy(self.contains)
    }
}
