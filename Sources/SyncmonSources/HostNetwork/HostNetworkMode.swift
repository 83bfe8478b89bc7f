/// How the daemon learns the host's own network view (`--host-network`, docs/operations.md,
/// "Host network view").
package enum HostNetworkMode: String, CaseIterable, Sendable {
    /// Follow the host through rtnetlink (the default).
    case auto
    /// Do not: pairs whose engine never reported its network stay `unknown`, as before the host
    /// view existed. For hosts whose routing the rules misjudge.
    case off
    /// A fixed view instead of the host's: for tests, demos and `syncmon simulate` runs.
    case online
    case offline
}
