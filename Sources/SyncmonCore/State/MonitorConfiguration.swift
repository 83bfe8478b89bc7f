/// The knobs of the state model: stall thresholds (global and per engine) and the pair limit.
public struct MonitorConfiguration: Sendable {
    /// Thresholds for engines without their own.
    public var thresholds: StallThresholds
    /// Per-engine thresholds, which replace the global ones for that engine.
    public var engineThresholds: [InlineName: StallThresholds]
    /// The most (engine, database) pairs tracked; lines that would add one more are rejected
    /// with `engine_limit` (docs/configuration.md#limits).
    public var maximumPairs: Int
    /// Also report summary moves that keep the health (every cycle of a healthy engine), for
    /// debug logging; off, a healthy engine's verdict is reported once.
    public var reportsCycles: Bool
    /// Who may report for which engine over the push socket; engines not listed take anyone.
    public var peerPolicies: [InlineName: PeerPolicy] = [:]

    public init(
        thresholds: StallThresholds = .defaults,
        engineThresholds: [InlineName: StallThresholds] = [:],
        maximumPairs: Int = 1000,
        reportsCycles: Bool = false
    ) {
        self.thresholds = thresholds
        self.engineThresholds = engineThresholds
        self.maximumPairs = maximumPairs
        self.reportsCycles = reportsCycles
    }

    public func thresholds(for engine: InlineName) -> StallThresholds {
        self.engineThresholds.isEmpty ? self.thresholds : self.engineThresholds[engine] ?? self.thresholds
    }
}
