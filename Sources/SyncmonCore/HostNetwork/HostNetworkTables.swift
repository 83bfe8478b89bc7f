/// The host's link table and the routes that could give it default coverage, kept current from
/// rtnetlink's dumps and notifications; `view` decides from them.
///
/// Pure: the daemon's netlink reader feeds it parsed messages. The update rules follow what
/// the kernel does without telling (docs/operations.md, "Host network view").
public struct HostNetworkTables: Equatable, Sendable {
    public private(set) var links: [Int32: HostLink] = [:]
    /// Only routes that may cover a default (`HostRoute.mayCoverDefault`): a router's full table
    /// costs nothing to follow.
    public private(set) var routes: [HostRoute.Key: HostRoute] = [:]

    public init() {}

    /// What the tables decide now.
    public var view: HostNetworkView {
        HostNetworkView.decide(links: self.links, routes: self.routes.values)
    }

    /// A link appeared or changed (`RTM_NEWLINK`).
    public mutating func update(_ link: HostLink) {
        self.links[link.index] = link
        // Setting a link down makes the kernel delete the routes through it, IPv4 without a
        // notification: drop them here too, or they would count again once the link is up
        // although nobody has put them back.
        if !link.isUp { self.dropRoutes(through: link.index) }
    }

    /// A link went away (`RTM_DELLINK`), and with it its routes.
    public mutating func removeLink(index: Int32) {
        self.links[index] = nil
        self.dropRoutes(through: index)
    }

    /// A route appeared (`RTM_NEWROUTE`); `replacing` when it replaced the route of the same
    /// destination and metric (`NLM_F_REPLACE`), whatever that one's type or next hop.
    public mutating func add(_ route: HostRoute, replacing: Bool = false) {
        if replacing {
            let slot = route.slot
            self.routes = self.routes.filter { $0.key.slot != slot }
        }
        guard route.mayCoverDefault else { return }
        self.routes[route.key] = route
    }

    /// A route went away (`RTM_DELROUTE`). Returns `false` when it could have counted but is not
    /// in the table: the tables no longer match the kernel's, and should be dumped again.
    public mutating func remove(_ route: HostRoute) -> Bool {
        guard route.mayCoverDefault else { return true }
        if self.routes.removeValue(forKey: route.key) != nil { return true }
        return false
    }

    /// Drops the routes all of whose next hops run through `index` or through links that are down:
    /// the kernel deletes a route once none of its next hops is alive; a multipath route with a
    /// live next hop stays.
    private mutating func dropRoutes(through index: Int32) {
        self.routes = self.routes.filter { _, route in
            guard route.interfaces.contains(index) else { return true }
            return route.interfaces.contains { $0 != index && self.links[$0]?.isUp == true }
        }
    }
}
