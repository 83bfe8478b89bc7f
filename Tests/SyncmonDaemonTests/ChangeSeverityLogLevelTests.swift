import SyncmonCore
import SyncmonSystemd
import Testing

@testable import SyncmonDaemon

/// Each severity's journal priority, as docs/operations.md#logs-and-journald documents them.
@Suite("Change severity to journal priority")
struct ChangeSeverityLogLevelTests {
    @Test(
        "priorities",
        arguments: [
            (ChangeSeverity.failure, JournalPriority.error),
            (.warning, .warning),
            (.recovery, .notice),
            (.routine, .informational),
        ]
    )
    func priority(severity: ChangeSeverity, priority: JournalPriority) {
        #expect(JournalPriority(severity.logLevel) == priority)
    }
}
