/// One change of a pair's health state (docs/operations.md#history): when, the summary before
/// and after, and why: the stall reasons of `stalled`, the failing phase with its code and
/// message of `error` and `retrying`, the reason of `unknown`.
///
/// The same decision as the journal's entry for the change (`Monitor` records it where it
/// reports the change), so the history and the journal never disagree.
public struct HealthChange: Hashable, Sendable, Codable {
    /// When the daemon saw the change.
    public var time: Timestamp
    /// The summary before; `nil` for the pair's first verdict (when it was first seen).
    public var from: Summary?
    /// The summary after.
    public var to: Summary
    /// The stall reasons (`no_progress,retry_loop`) of a `stalled` pair, or why a pair is `unknown`.
    public var reason: String?
    /// The failing phase of an `error` or `retrying` pair.
    public var phase: Phase?
    /// That phase's error code.
    public var code: String?
    /// The failure's message in the engine's own words, when it sent one.
    public var message: String?

    public init(
        time: Timestamp,
        from: Summary?,
        to: Summary,
        reason: String? = nil,
        phase: Phase? = nil,
        code: String? = nil,
        message: String? = nil
    ) {
        self.time = time
        self.from = from
        self.to = to
        self.reason = reason
        self.phase = phase
        self.code = code
        self.message = message
    }

    /// The change a verdict moving from `previous` to `evaluation` at `time` makes, saying why
    /// as the journal's line does: the stall reasons of `stalled`, the failure of `error` and
    /// `retrying` (`failedPhase`), `unknownReason` for `unknown`. A failure still outstanding
    /// behind another summary (`no_network` over a failed export) is not that change's why.
    public init(
        time: Timestamp,
        from previous: Summary?,
        to evaluation: Evaluation,
        failedPhase: (phase: Phase, error: PhaseError)?,
        unknownReason: String?
    ) {
        self.init(time: time, from: previous, to: evaluation.summary)
        switch evaluation.summary {
        case .stalled:
            self.reason = evaluation.stalls.map(\.description).joined(separator: ",")
        case .error, .retrying:
            guard let failedPhase else { break }
            self.phase = failedPhase.phase
            self.code = failedPhase.error.code.description
            self.message = failedPhase.error.message
        case .unknown:
            self.reason = unknownReason
        default:
            break
        }
    }
}
