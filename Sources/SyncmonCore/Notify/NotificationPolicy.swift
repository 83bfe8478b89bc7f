/// What one notification route sends and when (docs/notifications.md): the `[notify NAME]`
/// section's rules, without its target. Pure settings; `NotificationRoute` applies them.
public struct NotificationPolicy: Equatable, Sendable {
    /// The summaries that make a pair fire (`when`): by default the Nagios-critical ones.
    public var when: Set<Summary>
    /// The pairs the route covers (`engines`); empty covers every pair.
    public var engines: [PairPattern]
    /// How long a summary stays in (or out of) `when` before the pair fires (or resolves).
    public var hold: TimeSpan
    /// Whether a resolution is sent (`resolved`).
    public var sendsResolved: Bool
    /// How often a pair still firing is sent again (`repeat`); `nil` never.
    public var repeatInterval: TimeSpan?
    /// Pairs that fire within this span of the first go out as one notification (`group`).
    public var group: TimeSpan
    /// At most this many notifications an hour (`rate-limit`); more are folded into the next.
    public var ratePerHour: Int

    /// The defaults of docs/notifications.md: the critical summaries, every pair, 5 minutes'
    /// hold, resolutions sent, a repeat a day, 30 seconds' grouping, 20 an hour.
    public static let defaults = NotificationPolicy(
        when: [.error, .stalled, .engineDown],
        engines: [],
        hold: .seconds(Int64(300)),
        sendsResolved: true,
        repeatInterval: .seconds(Int64(86_400)),
        group: .seconds(Int64(30)),
        ratePerHour: 20
    )

    public init(
        when: Set<Summary>, engines: [PairPattern], hold: TimeSpan, sendsResolved: Bool, repeatInterval: TimeSpan?, group: TimeSpan,
        ratePerHour: Int
    ) {
        self.when = when
        self.engines = engines
        self.hold = hold
        self.sendsResolved = sendsResolved
        self.repeatInterval = repeatInterval
        self.group = group
        self.ratePerHour = max(1, ratePerHour)
    }

    /// Whether the route watches `pair` at all.
    public func covers(_ pair: PairKey) -> Bool {
        self.engines.isEmpty || self.engines.contains { $0.matches(pair) }
    }
}
