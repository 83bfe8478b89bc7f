/// Where one pair stands with one notification route (docs/notifications.md). A pair that is
/// quiet (out of the route's `when`, nothing fired) has no `PairAlert` at all. `previous` is the
/// summary the pair had before it entered `when` (`SYNCMON_PREVIOUS_SUMMARY` of a firing), `nil`
/// when nobody knows (its first verdict, or a state saved before it was kept).
public enum PairAlert: Equatable, Sendable {
    /// In `when` since `since`, not yet for the route's `hold`: nothing is sent if it leaves now.
    case pending(since: Timestamp, summary: Summary, previous: Summary?)
    /// Fired. `since`: when it entered `when`; `notified`: when its last firing or repeat was
    /// decided, which the next repeat counts from.
    case firing(since: Timestamp, summary: Summary, previous: Summary?, notified: Timestamp)
    /// Fired, then left `when` at `clearedAt`: resolves once it stays out for `hold`, or fires
    /// on (without a new notification) if it comes back first. `summary` is the one it left to,
    /// `broken` the last one it had in `when` (the resolution's previous summary).
    case clearing(since: Timestamp, summary: Summary, previous: Summary?, broken: Summary?, notified: Timestamp, clearedAt: Timestamp)

    /// The summary the pair has now.
    public var summary: Summary {
        switch self {
        case .pending(_, let summary, _), .firing(_, let summary, _, _), .clearing(_, let summary, _, _, _, _): summary
        }
    }

    /// When the pair entered `when`.
    public var since: Timestamp {
        switch self {
        case .pending(let since, _, _), .firing(let since, _, _, _), .clearing(let since, _, _, _, _, _): since
        }
    }

    /// The summary the pair had before it entered `when`.
    public var previous: Summary? {
        switch self {
        case .pending(_, _, let previous), .firing(_, _, let previous, _), .clearing(_, _, let previous, _, _, _): previous
        }
    }

    /// The pair's alert once its summary is `summary` at `now`: `nil` when it is quiet.
    /// `previous` (asked for only when a quiet pair enters `when`) is the summary it had before.
    static func observed(
        _ alert: PairAlert?, summary: Summary, previous: () -> Summary?, isWatched: Bool, at now: Timestamp
    ) -> PairAlert? {
        switch (alert, isWatched) {
        case (nil, false): nil
        case (nil, true): .pending(since: now, summary: summary, previous: previous())
        case (.pending, false): nil
        case (.pending(let since, _, let before), true): .pending(since: since, summary: summary, previous: before)
        case (.firing(let since, _, let before, let notified), true): .firing(since: since, summary: summary, previous: before, notified: notified)
        case (.firing(let since, let broken, let before, let notified), false):
            .clearing(since: since, summary: summary, previous: before, broken: broken, notified: notified, clearedAt: now)
        case (.clearing(let since, _, let before, _, let notified, _), true): .firing(since: since, summary: summary, previous: before, notified: notified)
        case (.clearing(let since, _, let before, let broken, let notified, let clearedAt), false):
            .clearing(since: since, summary: summary, previous: before, broken: broken, notified: notified, clearedAt: clearedAt)
        }
    }
}
