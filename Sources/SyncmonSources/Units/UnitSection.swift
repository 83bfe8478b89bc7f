import SyncmonCore

/// A `[source NAME]` section's `unit:` keys (docs/systemd-units.md, `user`: docs/user-sessions.md), each parsed into its type
/// as the file is read. The section's `unit` makes it a source; `phase`, `database`, `rules` and `user`
/// apply to the source of that name, however it was declared (a path may hold `&` or `?`,
/// which the query form cannot carry).
package struct UnitSection: Sendable, Hashable {
    /// `unit`, parsed as what follows `unit:` (a query may follow the unit's name).
    package var target: UnitTarget? = nil
    package var phases: [Phase]? = nil
    package var database: Database? = nil
    package var rules: String? = nil
    package var user: String? = nil

    package init() {}

    /// `target` with this section's keys over its own.
    package func applied(to target: UnitTarget) -> UnitTarget {
        var target = target
        if let phases = self.phases { target.phases = phases }
        if let database = self.database { target.database = database }
        if let rules = self.rules { target.rules = rules }
        if let user = self.user { target.user = user }
        return target
    }
}
