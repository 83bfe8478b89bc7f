extension StatusRow {
    /// Whether the pair is in sync, what `syncmon status --wait` waits for (§6): summary
    /// `succeeded`, no phase in progress, nothing pending, and no canary late.
    public var isInSync: Bool {
        self.summary == .succeeded && !Phase.allCases.contains { self[$0].isInProgress } && StatusDetail.pending(of: self) == 0
            && !StatusDetail.isCanaryLate(self)
    }
}
