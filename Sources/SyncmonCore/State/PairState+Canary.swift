extension PairState {
    /// A pair that exists for its canary alone, from `now` (docs/canary.md).
    init(canaryFrom now: Timestamp, hostNetwork: NetworkStatus) {
        self.init(firstEvent: now, hostNetwork: hostNetwork)
        self.canaryOnly = true
    }

    /// Takes the canary's latest status; its lateness is part of the next verdict.
    mutating func setCanary(_ status: CanaryStatus?) {
        guard status != self.canary else { return }
        if status?.isLate != self.canary?.isLate || status?.lateAfter != self.canary?.lateAfter { self.verdictHoldsUntil = .distantPast }
        self.canary = status
    }

    /// A peer's canary moved (`import`) or acknowledged this host's (`export`) at `time`: a
    /// completed, zero-length cycle, while no engine has sent an event for the pair. Returns
    /// whether it counted.
    mutating func canaryCycle(_ phase: Phase, at time: Timestamp) -> Bool {
        guard self.canaryOnly == true, phase != .setup else { return false }
        self.verdictHoldsUntil = .distantPast
        self.endCycle(phase, at: time)
        return true
    }
}

extension Monitor {
    /// Whether the pair's engine could not have synced at `now` (stopped, down, no network or
    /// account, throttled): a canary is not late then (docs/canary.md).
    public func isSuppressed(_ key: PairKey, at now: Timestamp) -> Bool {
        self.pairs[key]?.isSuppressed(at: now) ?? false
    }
}
