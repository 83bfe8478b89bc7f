import Logging
import SyncmonCore

extension ChangeSeverity {
    /// The log level of an entry of this severity, which the journal handler sends as the
    /// priority docs/operations.md#logs-and-journald documents: err, warning, notice, info.
    var logLevel: Logger.Level {
        switch self {
        case .failure: .error
        case .warning: .warning
        case .recovery: .notice
        case .routine: .info
        }
    }
}
