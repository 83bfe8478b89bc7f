import ArgumentParser
import SyncmonCore

/// The stall-detector thresholds (SPEC §2.3), shared by `daemon` and `replay`.
struct StallThresholdOptions: ParsableArguments {
    @Option(name: .customLong("not-syncing-after"), help: "Stall when setup succeeded but no import started for this long (0 disables).")
    var notSyncing = DurationArgument(StallThresholds.defaults.notSyncing)

    @Option(name: .customLong("no-progress-after"), help: "Stall when a phase is in progress without a progress event for this long (0 disables).")
    var noProgress = DurationArgument(StallThresholds.defaults.noProgress)

    @Option(name: .customLong("pending-not-draining-after"), help: "Stall when changes are pending and no export succeeded for this long (0 disables).")
    var pendingNotDraining = DurationArgument(StallThresholds.defaults.pendingNotDraining)

    @Option(name: .customLong("retry-loop-after"), help: "Stall when transient errors keep arriving and nothing succeeded for this long (0 disables).")
    var retryLoop = DurationArgument(StallThresholds.defaults.retryLoop)

    @Option(name: .customLong("no-recent-import-after"), help: "Stall when no import succeeded for this long (0, the default, disables).")
    var noRecentImport = DurationArgument(StallThresholds.defaults.noRecentImport)

    var thresholds: StallThresholds {
        StallThresholds(
            notSyncing: self.notSyncing.span,
            noProgress: self.noProgress.span,
            pendingNotDraining: self.pendingNotDraining.span,
            retryLoop: self.retryLoop.span,
            noRecentImport: self.noRecentImport.span
        )
    }
}
