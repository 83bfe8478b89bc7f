/// Who may report for an engine over the push socket (docs/configuration.md, "Per-engine
/// sections"): the users and groups of an `[engine NAME]` section's `allowed-users` and
/// `allowed-groups`. An engine without a policy takes events from anyone who can open the
/// socket, as before.
public struct PeerPolicy: Hashable, Sendable {
    public var users: Set<UInt32>
    public var groups: Set<UInt32>

    public init(users: Set<UInt32> = [], groups: Set<UInt32> = []) {
        self.users = users
        self.groups = groups
    }

    /// Whether `peer` may report. Root may always: it could write the state file itself.
    public func allows(_ peer: PeerCredentials) -> Bool {
        peer.user == 0 || self.users.contains(peer.user) || self.groups.contains(peer.group)
    }
}

/// The process at the other end of a push connection, as the kernel vouches for it
/// (`SO_PEERCRED`, taken when the connection opened).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var user: UInt32
    public var group: UInt32
    public var process: Int32

    public init(user: UInt32, group: UInt32, process: Int32) {
        self.user = user
        self.group = group
        self.process = process
    }

    public var description: String { "uid \(self.user) gid \(self.group) pid \(self.process)" }
}
