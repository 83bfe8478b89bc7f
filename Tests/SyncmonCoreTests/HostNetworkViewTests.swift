import SyncmonCore
import Testing

/// The host network view's decision (docs/operations.md, "Host network view"): online while a
/// default route, IPv4 or IPv6, runs through an interface that carries traffic. One row per rule.
@Suite("Host network view: the decision")
struct HostNetworkViewTests {
    /// A table row: links, routes, and the verdict with the interfaces it names.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var links: [HostLink]
        var routes: [HostRoute]
        var online: Bool
        var through: [String] = []
        var testDescription: String { self.name }
    }

    static let cases: [Case] = [
        Case(name: "no routes at all: offline", links: [eth0], routes: [], online: false),
        Case(name: "IPv4 default via an interface up with carrier: online", links: [eth0], routes: [v4default(eth0)], online: true, through: ["eth0"]),
        Case(name: "default via an interface without carrier (IFF_RUNNING clear): offline", links: [noCarrier(eth0)], routes: [v4default(eth0)], online: false),
        Case(name: "default via an interface set down: offline", links: [down(eth0)], routes: [v4default(eth0)], online: false),
        Case(name: "default via loopback never counts", links: [lo], routes: [v4default(lo)], online: false),
        Case(name: "default via an interface the link table does not know: offline", links: [eth0], routes: [v4default(index: 42)], online: false),
        Case(
            name: "a route naming no interface (a next-hop object only): offline", links: [eth0], routes: [HostRoute(family: .ipv4, interfaces: [])],
            online: false),
        Case(name: "blackhole default: offline", links: [eth0], routes: [HostRoute(family: .ipv4, kind: .blackhole, interfaces: [])], online: false),
        Case(name: "unreachable default: offline", links: [eth0], routes: [HostRoute(family: .ipv4, kind: .unreachable, interfaces: [])], online: false),
        Case(name: "prohibit IPv6 default: offline", links: [eth0], routes: [HostRoute(family: .ipv6, kind: .prohibit, interfaces: [])], online: false),
        Case(
            name: "a local-type 0/0 route is not a default: offline", links: [eth0], routes: [HostRoute(family: .ipv4, kind: .other, interfaces: [eth0.index])],
            online: false),
        Case(
            name: "a blackhole default beside a unicast one does not hide it: online",
            links: [eth0], routes: [HostRoute(family: .ipv4, kind: .blackhole, priority: 1, interfaces: []), v4default(eth0, metric: 100)],
            online: true, through: ["eth0"]
        ),
        Case(name: "IPv6 default alone: online", links: [eth0], routes: [v6default(eth0)], online: true, through: ["eth0"]),
        Case(
            name: "IPv4 default through a dead link, IPv6 through a live one: online through the IPv6 one",
            links: [noCarrier(eth0), wlan0], routes: [v4default(eth0), v6default(wlan0)], online: true, through: ["wlan0"]
        ),
        Case(
            name: "two defaults, one link without carrier: online through the other",
            links: [noCarrier(eth0), wlan0], routes: [v4default(eth0, metric: 100), v4default(wlan0, metric: 600)], online: true, through: ["wlan0"]
        ),
        // Tables
        Case(name: "default in the `default` table (253): online", links: [eth0], routes: [v4default(eth0, table: 253)], online: true, through: ["eth0"]),
        Case(
            name: "policy routing: a default only in another table (wg-quick's 51820) does not count",
            links: [eth0, wg0], routes: [v4default(wg0, table: 51820)], online: false
        ),
        Case(
            name: "wg-quick: the tunnel's default in 51820 and the underlay's in main: online through the underlay",
            links: [eth0, wg0], routes: [v4default(wg0, table: 51820), v4default(eth0)], online: true, through: ["eth0"]
        ),
        Case(
            name: "wg-quick with the underlay's carrier lost: offline, although the tunnel is up",
            links: [noCarrier(eth0), wg0], routes: [v4default(wg0, table: 51820), v4default(eth0)], online: false
        ),
        Case(
            name: "VRF: a default in a VRF's table (l3mdev) serves that VRF only: offline",
            links: [vrf, eth1], routes: [v4default(eth1, table: 1001)], online: false
        ),
        // Tunnels
        Case(
            name: "WireGuard default in main, tunnel up (no carrier notion, IFF_RUNNING set): online", links: [wg0], routes: [v4default(wg0)], online: true,
            through: ["wg0"]),
        Case(name: "tun device whose program let go (NO-CARRIER): offline", links: [noCarrier(tun0)], routes: [v4default(tun0)], online: false),
        // Split routes
        Case(
            name: "OpenVPN def1: 0.0.0.0/1 + 128.0.0.0/1 through the tunnel: online",
            links: [tun0], routes: [v4(tun0, [0], 1), v4(tun0, [128], 1)], online: true, through: ["tun0"]
        ),
        Case(name: "only one half, 0.0.0.0/1: offline", links: [tun0], routes: [v4(tun0, [0], 1)], online: false),
        Case(
            name: "the halves through two live interfaces: online through both",
            links: [tun0, eth0], routes: [v4(tun0, [0], 1), v4(eth0, [128], 1)], online: true, through: ["eth0", "tun0"]
        ),
        Case(name: "a half through a dead interface: offline", links: [tun0, noCarrier(eth0)], routes: [v4(tun0, [0], 1), v4(eth0, [128], 1)], online: false),
        Case(
            name: "quarters cover it too: online",
            links: [tun0], routes: [v4(tun0, [0], 2), v4(tun0, [64], 2), v4(tun0, [128], 2), v4(tun0, [192], 2)], online: true, through: ["tun0"]
        ),
        Case(
            name: "a half written with host bits (128.1.2.3/1) covers 128-255",
            links: [tun0], routes: [v4(tun0, [0], 1), v4(tun0, [128, 1, 2, 3], 1)], online: true, through: ["tun0"]
        ),
        Case(name: "10.0.0.0/8 alone: offline", links: [eth0], routes: [v4(eth0, [10], 8)], online: false),
        Case(
            name: "256 /8 routes cover everything: online",
            links: [eth0], routes: (0...255).map { v4(eth0, [UInt8($0)], 8) }, online: true, through: ["eth0"]
        ),
        Case(
            name: "/9 halves of every /8 are too long to count: offline",
            links: [eth0], routes: (0...255).flatMap { [v4(eth0, [UInt8($0), 0], 9), v4(eth0, [UInt8($0), 128], 9)] }, online: false
        ),
        Case(
            name: "OpenVPN IPv6 (::/3, 2000::/4, 3000::/4, fc00::/7) covers 2000::/3: online",
            links: [tun0], routes: [v6(tun0, [0x00], 3), v6(tun0, [0x20], 4), v6(tun0, [0x30], 4), v6(tun0, [0xFC], 7)], online: true, through: ["tun0"]
        ),
        Case(name: "IPv6 2000::/4 alone: offline", links: [tun0], routes: [v6(tun0, [0x20], 4)], online: false),
        Case(name: "IPv6 2000::/3: all global unicast, online", links: [tun0], routes: [v6(tun0, [0x20], 3)], online: true, through: ["tun0"]),
        Case(
            name: "split halves in a policy table do not count", links: [tun0], routes: [v4(tun0, [0], 1, table: 100), v4(tun0, [128], 1, table: 100)],
            online: false),
        // Multipath
        Case(
            name: "multipath default with one live next hop: online through it",
            links: [eth0, noCarrier(eth1)], routes: [HostRoute(family: .ipv4, interfaces: [eth0.index, eth1.index], isMultipath: true)],
            online: true, through: ["eth0"]
        ),
        Case(
            name: "multipath default with no live next hop: offline",
            links: [noCarrier(eth0), down(eth1)], routes: [HostRoute(family: .ipv4, interfaces: [eth0.index, eth1.index], isMultipath: true)], online: false
        ),
    ]

    @Test(arguments: cases)
    func decision(_ row: Case) {
        let links = Dictionary(uniqueKeysWithValues: row.links.map { ($0.index, $0) })
        let view = HostNetworkView.decide(links: links, routes: row.routes)
        #expect(view.isOnline == row.online)
        #expect(view.interfaces == row.through)
        #expect(view.status == (row.online ? .available : .unavailable))
    }
}

// MARK: Vocabulary

let lo = HostLink(index: 1, name: "lo", isUp: true, isRunning: true, isLoopback: true)
let eth0 = HostLink(index: 2, name: "eth0", isUp: true, isRunning: true)
let wlan0 = HostLink(index: 3, name: "wlan0", isUp: true, isRunning: true)
let eth1 = HostLink(index: 4, name: "eth1", isUp: true, isRunning: true)
let wg0 = HostLink(index: 5, name: "wg0", isUp: true, isRunning: true, kind: "wireguard")
let tun0 = HostLink(index: 6, name: "tun0", isUp: true, isRunning: true, kind: "tun")
let vrf = HostLink(index: 7, name: "mgmt", isUp: true, isRunning: true, kind: "vrf")

/// The link with its carrier lost: still up, no longer running.
func noCarrier(_ link: HostLink) -> HostLink {
    var link = link
    link.isRunning = false
    return link
}

/// The link set down (the kernel clears running too).
func down(_ link: HostLink) -> HostLink {
    var link = link
    link.isUp = false
    link.isRunning = false
    return link
}

func v4default(_ link: HostLink, metric: UInt32 = 0, table: UInt32 = HostRoute.mainTable) -> HostRoute {
    HostRoute(family: .ipv4, table: table, priority: metric, interfaces: [link.index])
}

func v4default(index: Int32) -> HostRoute {
    HostRoute(family: .ipv4, interfaces: [index])
}

func v6default(_ link: HostLink) -> HostRoute {
    HostRoute(family: .ipv6, priority: 1024, interfaces: [link.index])
}

func v4(_ link: HostLink, _ destination: [UInt8], _ prefixLength: UInt8, table: UInt32 = HostRoute.mainTable) -> HostRoute {
    HostRoute(family: .ipv4, table: table, destination: destination, prefixLength: prefixLength, interfaces: [link.index])
}

func v6(_ link: HostLink, _ destination: [UInt8], _ prefixLength: UInt8) -> HostRoute {
    HostRoute(
        family: .ipv6, destination: destination + [UInt8](repeating: 0, count: 16 - destination.count), prefixLength: prefixLength, priority: 1024,
        interfaces: [link.index])
}
