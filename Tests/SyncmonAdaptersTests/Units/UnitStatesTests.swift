import SyncmonCore
import Testing

@testable import SyncmonAdapters

/// systemd's words for a unit's states, parsed once where the bus's strings are read: each known
/// word to its case and back as written; an unknown word kept as written.
@Suite("unit: systemd's state words")
struct UnitStatesTests {
    @Test(
        "ActiveState",
        arguments: [
            ("active", UnitActiveState.active), ("reloading", .reloading), ("inactive", .inactive), ("failed", .failed),
            ("activating", .activating), ("deactivating", .deactivating), ("maintenance", .maintenance), ("refreshing", .other("refreshing")),
        ])
    func activeState(word: String, state: UnitActiveState) {
        #expect(UnitActiveState(word) == state)
        #expect(state.description == word)
    }

    @Test(
        "SubState",
        arguments: [
            ("dead", UnitSubState.dead), ("start", .start), ("running", .running), ("exited", .exited), ("failed", .failed),
            ("auto-restart", .autoRestart), ("stop-sigterm", .other("stop-sigterm")),
        ])
    func subState(word: String, state: UnitSubState) {
        #expect(UnitSubState(word) == state)
        #expect(state.description == word)
    }

    @Test(
        "Result",
        arguments: [
            ("success", UnitResult.success), ("exit-code", .exitCode), ("signal", .signal), ("core-dump", .other("core-dump")),
            ("start-limit-hit", .other("start-limit-hit")),
        ])
    func result(word: String, result: UnitResult) {
        #expect(UnitResult(word) == result)
        #expect(result.description == word)
    }

    @Test(
        "LoadState",
        arguments: [
            ("loaded", UnitLoadState.loaded), ("not-found", .notFound), ("bad-setting", .badSetting), ("error", .error),
            ("masked", .masked), ("merged", .other("merged")),
        ])
    func loadState(word: String, state: UnitLoadState) {
        #expect(UnitLoadState(word) == state)
        #expect(state.description == word)
    }

    @Test(
        "a unit's pair runs without not_syncing unless it is configured; the other thresholds as configured",
        arguments: [
            ([StallReason: TimeSpan](), [StallReason.notSyncing: TimeSpan.zero]),
            ([.notSyncing: .seconds(Int64(300))], [.notSyncing: .seconds(Int64(300))]),
            ([.noProgress: .seconds(Int64(60))], [.notSyncing: .zero, .noProgress: .seconds(Int64(60))]),
        ])
    func thresholds(configured: [StallReason: TimeSpan], expected: [StallReason: TimeSpan]) {
        #expect(UnitEventMapper.thresholds(configured: configured) == expected)
    }
}
