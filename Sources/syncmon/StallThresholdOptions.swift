import ArgumentParser
import SyncmonCore
import SyncmonDaemon

/// The stall-detector thresholds (docs/protocol.md#stall-detectors), shared by `daemon` and
/// `replay`; names, help and parsing come from their declarations (``DaemonSetting``).
///
/// Each is optional so that a flag given on the command line can win over the configuration
/// file while an absent one leaves the file's (or the default) value alone.
struct StallThresholdOptions: ParsableArguments {
    @Option(name: .setting(Self.notSyncing), help: .setting(Self.notSyncing))
    var notSyncing: String?

    @Option(name: .setting(Self.noProgress), help: .setting(Self.noProgress))
    var noProgress: String?

    @Option(name: .setting(Self.pendingNotDraining), help: .setting(Self.pendingNotDraining))
    var pendingNotDraining: String?

    @Option(name: .setting(Self.retryLoop), help: .setting(Self.retryLoop))
    var retryLoop: String?

    @Option(name: .setting(Self.noRecentImport), help: .setting(Self.noRecentImport))
    var noRecentImport: String?

    @Option(name: .setting(Self.noRecentExport), help: .setting(Self.noRecentExport))
    var noRecentExport: String?

    private static let notSyncing = DaemonSetting.threshold(.notSyncing)
    private static let noProgress = DaemonSetting.threshold(.noProgress)
    private static let pendingNotDraining = DaemonSetting.threshold(.pendingNotDraining)
    private static let retryLoop = DaemonSetting.threshold(.retryLoop)
    private static let noRecentImport = DaemonSetting.threshold(.noRecentImport)
    private static let noRecentExport = DaemonSetting.threshold(.noRecentExport)

    /// The thresholds given, as settings.
    var assignments: [SettingAssignment] {
        SettingAssignment.given(Self.notSyncing, self.notSyncing) + SettingAssignment.given(Self.noProgress, self.noProgress)
            + SettingAssignment.given(Self.pendingNotDraining, self.pendingNotDraining)
            + SettingAssignment.given(Self.retryLoop, self.retryLoop) + SettingAssignment.given(Self.noRecentImport, self.noRecentImport)
            + SettingAssignment.given(Self.noRecentExport, self.noRecentExport)
    }

    func validate() throws {
        do {
            try SettingAssignment.check(self.assignments)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// `base` with the thresholds given on the command line replaced (for `replay`).
    func applied(to base: StallThresholds) -> StallThresholds {
        var configuration = DaemonConfiguration.reference
        configuration.thresholds = base
        // Checked in `validate()`: no error is left here.
        try? SettingAssignment.apply(self.assignments, to: &configuration)
        return configuration.thresholds
    }
}
