/// Where one pair stands with one notification route (docs/notifications.md). A pair that is
/// quiet (out of the route's `when`, nothing fired) has no `PairAlert` at all.
public enum PairAlert: Equatable, Sendable {
    /// In `when` since `since`, not yet for the route's `hold`: nothing is sent if it leaves now.
    case pending(since: Timestamp, summary: Summary)
    /// Fired. `since`: when it entered `when`; `notified`: when its last firing or repeat was
    /// decided, which the next repeat counts from.
    case firing(since: Timestamp, summary: Summary, notified: Timestamp)
    /// Fired, then left `when` at `clearedAt`: resolves once it stays out for `hold`, or fires
    /// on (without a new notification) if it comes back first. `summary` is the one it left to.
    case clearing(since: Timestamp, summary: Summary, notified: Timestamp, clearedAt: Timestamp)

    /// The summary the pair has now.
    public var summary: Summary {
        switch self {
        case .pending(_, let summary), .firing(_, let summary, _), .clearing(_, let summary, _, _): summary
        }
    }

    /// When the pair entered `when`.
    public var since: Timestamp {
        switch self {
        case .pending(let since, _), .firing(let since, _, _), .clearing(let since, _, _, _): since
        }
    }

    /// The pair's alert once its summary is `summary` at `now`: `nil` when it is quiet.
    static func observed(_ alert: PairAlert?, summary: Summary, isWatched: Bool, at now: Timestamp) -> PairAlert? {
        switch (alert, isWatched) {
        case (nil, false): nil
        case (nil, true): .pending(since: now, summary: summary)
        case (.pending, false): nil
        case (.pending(let since, _), true): .pending(since: since, summary: summary)
        case (.firing(let since, _, let notified), true): .firing(since: since, summary: summary, notified: notified)
        case (.firing(let since, _, let notified), false): .clearing(since: since, summary: summary, notified: notified, clearedAt: now)
        case (.clearing(let since, _, let notified, _), true): .firing(since: since, summary: summary, notified: notified)
        case (.clearing(let since, _, let notified, let clearedAt), false):
            .clearing(since: since, summary: summary, notified: notified, clearedAt: clearedAt)
        }
    }
}
