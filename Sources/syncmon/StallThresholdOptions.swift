import ArgumentParser
import SyncmonCore

/// The stall-detector thresholds (docs/protocol.md#stall-detectors), shared by `daemon` and
/// `replay`; names, help, checking and parsing come from their declarations (``DaemonSetting``,
/// through `DaemonSettingOption.swift`, the one place besides `DaemonCommand` that reads the
/// daemon's settings).
///
/// Each is optional so that a flag given on the command line can win over the configuration
/// file while an absent one leaves the file's (or the default) value alone. Each takes the
/// next word even when it starts with "-", so `-5s` is refused as a duration, not as a flag.
struct StallThresholdOptions: ParsableArguments {
    @Option(name: .threshold(.notSyncing), parsing: .unconditional, help: .threshold(.notSyncing))
    var notSyncing: String?

    @Option(name: .threshold(.noProgress), parsing: .unconditional, help: .threshold(.noProgress))
    var noProgress: String?

    @Option(name: .threshold(.pendingNotDraining), parsing: .unconditional, help: .threshold(.pendingNotDraining))
    var pendingNotDraining: String?

    @Option(name: .threshold(.retryLoop), parsing: .unconditional, help: .threshold(.retryLoop))
    var retryLoop: String?

    @Option(name: .threshold(.noRecentImport), parsing: .unconditional, help: .threshold(.noRecentImport))
    var noRecentImport: String?

    @Option(name: .threshold(.noRecentExport), parsing: .unconditional, help: .threshold(.noRecentExport))
    var noRecentExport: String?

    /// The thresholds given on the command line, as typed, in the order of the options.
    var given: [(reason: StallReason, text: String)] {
        let values: [(StallReason, String?)] = [
            (.notSyncing, self.notSyncing), (.noProgress, self.noProgress), (.pendingNotDraining, self.pendingNotDraining),
            (.retryLoop, self.retryLoop), (.noRecentImport, self.noRecentImport), (.noRecentExport, self.noRecentExport),
        ]
        return values.compactMap { reason, text in text.map { (reason, $0) } }
    }
}
