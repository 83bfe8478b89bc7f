import SyncmonCore

/// A health state as the pages colour it (docs/page.md, "Colours"): `ok` for `not_started`,
/// `in_progress` and `succeeded`, which the journal and the history count as one state, and each
/// other summary its own. The CSS class of a badge is `s-NAME` and of a strip's stretch `h-NAME`.
public enum PageHealth: Int, CaseIterable, Sendable, CustomStringConvertible {
    case error, stalled, engineDown, unknown, noNetwork, accountNotAvailable, retrying, throttled, stopped, ok

    public init(_ summary: Summary) {
        switch summary {
        case .error: self = .error
        case .stalled: self = .stalled
        case .engineDown: self = .engineDown
        case .unknown: self = .unknown
        case .noNetwork: self = .noNetwork
        case .accountNotAvailable: self = .accountNotAvailable
        case .retrying: self = .retrying
        case .throttled: self = .throttled
        case .stopped: self = .stopped
        case .notStarted, .inProgress, .succeeded: self = .ok
        }
    }

    /// The summary's spelling (`engine_down`), `ok` for the healthy three.
    public var description: String {
        switch self {
        case .error: "error"
        case .stalled: "stalled"
        case .engineDown: "engine_down"
        case .unknown: "unknown"
        case .noNetwork: "no_network"
        case .accountNotAvailable: "account_not_available"
        case .retrying: "retrying"
        case .throttled: "throttled"
        case .stopped: "stopped"
        case .ok: "ok"
        }
    }

    /// The class of a strip's stretch in this state.
    var stripClass: StaticString {
        switch self {
        case .error: "h-error"
        case .stalled: "h-stalled"
        case .engineDown: "h-engine_down"
        case .unknown: "h-unknown"
        case .noNetwork: "h-no_network"
        case .accountNotAvailable: "h-account_not_available"
        case .retrying: "h-retrying"
        case .throttled: "h-throttled"
        case .stopped: "h-stopped"
        case .ok: "h-ok"
        }
    }
}
