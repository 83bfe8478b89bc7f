import Logging
import SyncmonSystemd
import Testing

/// The levels docs/operations.md#logs-and-journald assigns to state-change entries.
@Suite("State-change log levels")
struct StateChangeLogLevelTests {
    @Test(
        "summary changes",
        arguments: [
            ("error", String?.none, Logger.Level.error),
            ("engine_down", "succeeded", .error),
            ("stalled", "in_progress", .warning),
            ("no_network", "succeeded", .warning),
            ("account_not_available", nil, .warning),
            ("succeeded", "stalled", .notice),
            ("in_progress", "error", .notice),
            ("stopped", "engine_down", .notice),
            ("succeeded", "in_progress", .info),
            ("in_progress", nil, .info),
            ("throttled", "retrying", .info),
            ("stalled", "error", .warning),
        ]
    )
    func summaryChanges(summary: String, previous: String?, level: Logger.Level) {
        #expect(StateChangeLogLevel.summaryChanged(to: summary, from: previous) == level)
    }

    @Test("stalls raised warn, stalls cleared are a recovery")
    func stalls() {
        #expect(JournalPriority(StateChangeLogLevel.stallRaised) == .warning)
        #expect(JournalPriority(StateChangeLogLevel.stallCleared) == .notice)
    }
}
