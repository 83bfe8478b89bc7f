import Logging

/// The level of syncmon's state-change entries, as docs/operations.md#logs-and-journald assigns their journal priorities.
///
/// err for `error` and `engine_down`, warning for `stalled`, `no_network` and `account_not_available`, notice for a
/// recovery from one of those, info otherwise. Kept here, next to the priority mapping, so the daemon cannot drift
/// from the documented priorities one call site at a time.
public enum StateChangeLogLevel {
    /// Summaries logged at `error`.
    static let errorSummaries: Set<String> = ["error", "engine_down"]

    /// Summaries logged at `warning`.
    static let warningSummaries: Set<String> = ["stalled", "no_network", "account_not_available"]

    /// The level of an entry for a summary change.
    ///
    /// - Parameters:
    ///   - summary: The new summary (docs/protocol.md#summary value).
    ///   - previous: The summary before, or `nil` for the first one of an engine.
    public static func summaryChanged(to summary: String, from previous: String?) -> Logger.Level {
        if Self.errorSummaries.contains(summary) { return .error }
        if Self.warningSummaries.contains(summary) { return .warning }
        if let previous, Self.errorSummaries.contains(previous) || Self.warningSummaries.contains(previous) {
            return .notice
        }
        return .info
    }

    /// The level of an entry for a stall being raised: a stall is `stalled`, a warning.
    public static let stallRaised: Logger.Level = .warning

    /// The level of an entry for a stall clearing: a recovery.
    public static let stallCleared: Logger.Level = .notice
}
