extension ExpositionWriter {
    /// Writes every state of an enum-like state set for one series: `1` for `active`, `0` for the rest.
    ///
    /// All states are always written, so a state that stops being current reads `0` instead of
    /// vanishing; a vanished series would make `== 0` queries silently empty.
    ///
    /// - Parameter active: the index of the current state in the family's `states`.
    public mutating func stateSet(
        _ family: MetricFamily,
        labels: LabelSet = .empty,
        extra: LabelSet = .empty,
        active: Int
    ) {
        self.assertSample(of: family, kind: .stateSet)
        precondition(family.stateLabels.indices.contains(active), "state \(active) out of range for \(family.name)")
        for (index, stateLabel) in family.stateLabels.enumerated() {
            self.writeLine(family.sampleName, labels, extra, stateLabel, .unsigned(index == active ? 1 : 0))
        }
    }

    /// Writes every state of a flag-style state set (any number of states may be on at once, as with
    /// `syncmon_stalled` per reason): state `i` is `1` when bit `i` of `activeMask` is set.
    public mutating func stateSet(
        _ family: MetricFamily,
        labels: LabelSet = .empty,
        extra: LabelSet = .empty,
        activeMask: UInt64
    ) {
        self.assertSample(of: family, kind: .stateSet)
        assert(
            family.stateLabels.count == 64 || activeMask >> UInt64(family.stateLabels.count) == 0,
            "mask has bits beyond the states of \(family.name)"
        )
        for (index, stateLabel) in family.stateLabels.enumerated() {
            self.writeLine(family.sampleName, labels, extra, stateLabel, .unsigned((activeMask >> UInt64(index)) & 1))
        }
    }
}
