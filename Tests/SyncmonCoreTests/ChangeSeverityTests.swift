import SyncmonCore
import Testing

/// The severity of a verdict's change, from which the journal priorities of
/// docs/operations.md#logs-and-journald follow.
@Suite("Change severity")
struct ChangeSeverityTests {
    @Test(
        "summary changes",
        arguments: [
            (Summary.error, Summary?.none, ChangeSeverity.failure),
            (.engineDown, .succeeded, .failure),
            (.stalled, .inProgress, .warning),
            (.noNetwork, .succeeded, .warning),
            (.accountNotAvailable, nil, .warning),
            (.succeeded, .stalled, .recovery),
            (.inProgress, .error, .recovery),
            (.stopped, .engineDown, .recovery),
            (.succeeded, .inProgress, .routine),
            (.inProgress, nil, .routine),
            (.throttled, .retrying, .routine),
            (.stalled, .error, .warning),
            (.error, .stalled, .failure),
        ]
    )
    func summaryChanges(summary: Summary, previous: Summary?, severity: ChangeSeverity) {
        #expect(ChangeSeverity.ofChange(to: summary, from: previous) == severity)
    }

    /// Every summary has a severity, and exactly the documented ones stand out.
    @Test("the summaries that stand out")
    func standingOut() {
        let failures = Summary.allCases.filter { $0.changeSeverity == .failure }.map(\.description)
        let warnings = Summary.allCases.filter { $0.changeSeverity == .warning }.map(\.description)
        #expect(Set(failures) == ["error", "engine_down"])
        #expect(Set(warnings) == ["stalled", "no_network", "account_not_available"])
    }

    @Test("stalls raised warn, stalls cleared are a recovery")
    func stalls() {
        #expect(ChangeSeverity.stallRaised == .warning)
        #expect(ChangeSeverity.stallCleared == .recovery)
    }
}
