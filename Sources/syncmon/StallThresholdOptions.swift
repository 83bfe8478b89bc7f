import ArgumentParser
import SyncmonCore

/// The stall-detector thresholds (docs/protocol.md#stall-detectors), shared by `daemon` and `replay`.
///
/// Each is optional so that a flag given on the command line can win over the configuration
/// file while an absent one leaves the file's (or the default) value alone.
struct StallThresholdOptions: ParsableArguments {
    @Option(name: .customLong("not-syncing-after"), help: "Stall when setup succeeded but no import started for this long (default 60s; 0 disables).")
    var notSyncing: DurationArgument?

    @Option(name: .customLong("no-progress-after"), help: "Stall when a phase is in progress without a progress event for this long (default 5m; 0 disables).")
    var noProgress: DurationArgument?

    @Option(
        name: .customLong("pending-not-draining-after"), help: "Stall when changes are pending and no export succeeded for this long (default 15m; 0 disables)."
    )
    var pendingNotDraining: DurationArgument?

    @Option(
        name: .customLong("retry-loop-after"), help: "Stall when transient errors keep arriving and nothing succeeded for this long (default 30m; 0 disables).")
    var retryLoop: DurationArgument?

    @Option(name: .customLong("no-recent-import-after"), help: "Stall when no import succeeded for this long (default 0: disabled).")
    var noRecentImport: DurationArgument?

    @Option(
        name: .customLong("no-recent-export-after"),
        help: "Stall when no export succeeded for this long: the dead man's switch of a backup job (default 0: disabled)."
    )
    var noRecentExport: DurationArgument?

    /// `base` with the thresholds given on the command line replaced.
    func applied(to base: StallThresholds) -> StallThresholds {
        var thresholds = base
        let given: [(StallReason, DurationArgument?)] = [
            (.notSyncing, self.notSyncing), (.noProgress, self.noProgress), (.pendingNotDraining, self.pendingNotDraining),
            (.retryLoop, self.retryLoop), (.noRecentImport, self.noRecentImport), (.noRecentExport, self.noRecentExport),
        ]
        for case (let reason, let value?) in given { thresholds[reason] = value.span }
        return thresholds
    }
}
