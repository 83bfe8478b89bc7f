extension StatusRow {
    /// How the table and the Nagios line name a stall: its reason, and for `canary_late` the
    /// late peers (`canary_late: desk,nas`).
    public func describe(_ reason: StallReason) -> String {
        guard reason == .canaryLate, let peers = self.canary?.latePeers, !peers.isEmpty else { return reason.description }
        return "\(reason): " + peers.map(\.description).joined(separator: ",")
    }
}
