import SyncmonCore
import Testing

/// How the tables follow rtnetlink's messages, including what the kernel does without a
/// notification (docs/operations.md, "Host network view").
@Suite("Host network view: the tables")
struct HostNetworkTablesTests {
    /// One change to the tables.
    enum Step: Sendable, CustomStringConvertible {
        case link(HostLink)
        case linkRemoved(HostLink)
        case add(HostRoute)
        case replace(HostRoute)
        /// A deletion, and whether the tables held the route (`false`: they must be dumped again).
        case remove(HostRoute, known: Bool)

        var description: String {
            switch self {
            case .link(let link): "link \(link.name) up=\(link.isUp) running=\(link.isRunning)"
            case .linkRemoved(let link): "link \(link.name) removed"
            case .add(let route): "add \(route.family) /\(route.prefixLength) table \(route.table) via \(route.interfaces)"
            case .replace(let route): "replace with \(route.kind) via \(route.interfaces)"
            case .remove(let route, _): "remove /\(route.prefixLength) via \(route.interfaces)"
            }
        }
    }

    /// A table row: the steps, then the view and how many routes the tables hold.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var steps: [Step]
        var online: Bool
        var through: [String] = []
        var routes: Int
        var testDescription: String { self.name }
    }

    static let cases: [Case] = [
        Case(name: "a default through a live link", steps: [.link(eth0), .add(v4default(eth0))], online: true, through: ["eth0"], routes: 1),
        Case(name: "a route deleted", steps: [.link(eth0), .add(v4default(eth0)), .remove(v4default(eth0), known: true)], online: false, routes: 0),
        Case(
            name: "carrier lost keeps the route (the kernel does); carrier back is online again",
            steps: [.link(eth0), .add(v4default(eth0)), .link(noCarrier(eth0)), .link(eth0)], online: true, through: ["eth0"], routes: 1
        ),
        Case(
            name: "a link set down loses its routes without a notification: up again is still offline",
            steps: [.link(eth0), .add(v4default(eth0)), .link(down(eth0)), .link(eth0)], online: false, routes: 0
        ),
        Case(
            name: "a link removed takes its routes",
            steps: [.link(eth0), .add(v4default(eth0)), .linkRemoved(eth0), .link(eth0)], online: false, routes: 0
        ),
        Case(
            name: "a multipath route survives one next hop's link going down",
            steps: [.link(eth0), .link(eth1), .add(multipath(eth0, eth1)), .link(down(eth1))], online: true, through: ["eth0"], routes: 1
        ),
        Case(
            name: "a multipath route goes once every next hop's link is down",
            steps: [.link(eth0), .link(eth1), .add(multipath(eth0, eth1)), .link(down(eth1)), .link(down(eth0)), .link(eth0), .link(eth1)],
            online: false, routes: 0
        ),
        Case(
            name: "replaced by a blackhole default of the same metric: offline",
            steps: [.link(eth0), .add(v4default(eth0)), .replace(HostRoute(family: .ipv4, kind: .blackhole, interfaces: []))], online: false, routes: 0
        ),
        Case(
            name: "replaced through another interface: only the new one",
            steps: [.link(eth0), .link(eth1), .add(v4default(eth0)), .replace(v4default(eth1))], online: true, through: ["eth1"], routes: 1
        ),
        Case(
            name: "a replace of another metric leaves the first",
            steps: [.link(eth0), .link(eth1), .add(v4default(eth0, metric: 100)), .replace(v4default(eth1, metric: 600))],
            online: true, through: ["eth0", "eth1"], routes: 2
        ),
        Case(
            name: "IPv6 next hops of one default come as separate routes: each is kept, each is deleted",
            steps: [.link(eth0), .link(eth1), .add(v6default(eth0)), .add(v6default(eth1)), .remove(v6default(eth0), known: true)],
            online: true, through: ["eth1"], routes: 1
        ),
        Case(
            name: "routes that cannot cover a default are not kept, and deleting them is no news",
            steps: [
                .link(eth0), .add(v4(eth0, [10], 8, table: 100)), .add(v4(eth0, [192, 168, 1], 24)),
                .remove(v4(eth0, [192, 168, 1], 24), known: true), .remove(v4(eth0, [10], 8, table: 100), known: true),
                .add(HostRoute(family: .ipv4, kind: .unreachable, interfaces: [])),
                .remove(HostRoute(family: .ipv4, kind: .unreachable, interfaces: []), known: true),
            ],
            online: false, routes: 0
        ),
        Case(
            name: "deleting a default the tables never held: they must be dumped again",
            steps: [.link(eth0), .remove(v4default(eth0), known: false)], online: false, routes: 0
        ),
        Case(
            name: "a deletion names the destination with host bits: still the same route",
            steps: [.link(eth0), .add(v4(eth0, [128], 1)), .remove(v4(eth0, [128, 0, 0, 1], 1), known: true)], online: false, routes: 0
        ),
    ]

    @Test(arguments: cases)
    func steps(_ row: Case) {
        var tables = HostNetworkTables()
        for step in row.steps {
            switch step {
            case .link(let link): tables.update(link)
            case .linkRemoved(let link): tables.removeLink(index: link.index)
            case .add(let route): tables.add(route)
            case .replace(let route): tables.add(route, replacing: true)
            case .remove(let route, let known): #expect(tables.remove(route) == known, "\(step)")
            }
        }
        #expect(tables.view.isOnline == row.online)
        #expect(tables.view.interfaces == row.through)
        #expect(tables.routes.count == row.routes)
    }
}

func multipath(_ links: HostLink...) -> HostRoute {
    HostRoute(family: .ipv4, interfaces: links.map(\.index), isMultipath: true)
}
