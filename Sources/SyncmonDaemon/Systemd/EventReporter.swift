import Logging
import SyncmonCore
import SyncmonLock
import SyncmonSources
import SyncmonSystemd

/// Turns the state model's decisions into log entries (docs/operations.md, "Journal"): one
/// entry when a pair is first seen, then one per health change and per stall raised or cleared, with stable MESSAGE_IDs and `SYNCMON_*` fields, and
/// rate-limited entries for rejected lines.
package final class EventReporter: Sendable {
    private let logger: Logger
    /// Rejection log budget: at most `burst` entries per `window`, then one summary entry.
    private let limiter: Locked<RejectionLimiter>
    /// The host network state last logged (`online`, `offline`, `unavailable`), so that each
    /// change is logged once.
    private let hostNetworkLogged = Locked<String?>(nil)

    package init(logger: Logger, burst: Int = 5, window: TimeSpan = .seconds(10 as Int64)) {
        self.logger = logger
        self.limiter = Locked(RejectionLimiter(burst: burst, window: window))
    }

    /// Logs the host's own network view when its state changes (docs/operations.md, "Host network
    /// view"): one entry when the host goes offline, one when it comes back, one when it cannot
    /// be followed — never one per pair (each pair's move to `no_network` is its own summary
    /// change). A move of the default route to other interfaces is logged at debug.
    package func report(hostNetwork update: HostNetworkService.Update) {
        let state: String
        var metadata: Logger.Metadata = [SyncmonMetadataKey.messageID: MessageID.hostNetworkChanged.metadataValue]
        var interfaces: [String] = []
        switch update {
        case .view(let view):
            state = view.isOnline ? "online" : "offline"
            interfaces = view.interfaces
            if !interfaces.isEmpty { metadata[SyncmonMetadataKey.interfaces] = "\(interfaces.joined(separator: ","))" }
        case .unavailable(let reason):
            state = "unavailable"
            metadata[SyncmonMetadataKey.reason] = "\(reason)"
        }
        metadata[SyncmonMetadataKey.hostNetwork] = "\(state)"
        let previous = self.hostNetworkLogged.withLock { logged in
            defer { logged = state }
            return logged
        }
        let through = interfaces.isEmpty ? "" : " (default route via \(interfaces.joined(separator: ", ")))"
        guard previous != state else {
            self.logger.debug("host network \(state)\(through)", metadata: metadata)
            return
        }
        switch update {
        case .view(let view) where view.isOnline:
            // Back after an outage is a recovery; the first view at start is plain information.
            let again = previous == "offline"
            self.logger.log(level: again ? .notice : .info, "host network \(again ? "online again" : "online")\(through)", metadata: metadata)
        case .view:
            self.logger.warning(
                "host network offline: no default route through an interface that is up; engines that do not report their network are no_network",
                metadata: metadata
            )
        case .unavailable(let reason):
            self.logger.warning(
                "cannot follow the host network (\(reason)); engines that do not report their network stay unknown",
                metadata: metadata
            )
        }
    }

    /// Logs each change: one entry per health change and per stall raised or cleared, where a
    /// stall that changes the pair's health is one entry with both meanings (docs/operations.md,
    /// "Message IDs"): `sync stalled (no_progress)` carries the stall's MESSAGE_ID and reason and the
    /// summary fields; the stall's own entry would say the same thing twice.
    package func report(_ changes: [StatusChange]) {
        // Most batches (every pair's first verdict at start, say) hold no stall: nothing to fold.
        guard changes.contains(where: { !$0.isSummaryChange }) else {
            for change in changes { self.report(change, folding: []) }
            return
        }
        var summaries: [PairKey: Int] = [:]
        for (index, change) in changes.enumerated() where change.isSummaryChange && change.isHealthChange { summaries[change.key] = index }
        var folded: [Int: [StatusChange]] = [:]
        var said = Set<Int>()
        for (index, change) in changes.enumerated() {
            guard let target = summaries[change.key], Self.folds(change, into: changes[target]) else { continue }
            folded[target, default: []].append(change)
            said.insert(index)
        }
        for (index, change) in changes.enumerated() where !said.contains(index) { self.report(change, folding: folded[index] ?? []) }
    }

    /// Whether the entry of `summary` (a health change of the same pair) says `stall` too: a
    /// stall raised that made the pair `stalled`, or one cleared that ended `stalled`.
    static func folds(_ stall: StatusChange, into summary: StatusChange) -> Bool {
        guard stall.key == summary.key, summary.isHealthChange, case .summaryChanged(let previous) = summary.kind else { return false }
        switch stall.kind {
        case .stallRaised: return summary.evaluation.summary == .stalled
        case .stallCleared: return previous == .stalled
        case .summaryChanged: return false
        }
    }

    /// One entry: `change`, saying the stalls in `folded` too.
    private func report(_ change: StatusChange, folding folded: [StatusChange]) {
        var metadata: Logger.Metadata = [
            SyncmonMetadataKey.engine: "\(change.key.engine)",
            SyncmonMetadataKey.database: "\(change.key.database)",
            SyncmonMetadataKey.summary: "\(change.evaluation.summary)",
        ]
        if let failed = change.failedPhase {
            metadata[SyncmonMetadataKey.phase] = "\(failed.phase)"
            metadata[SyncmonMetadataKey.errorCode] = "\(failed.error.code)"
            if let message = failed.error.message { metadata[SyncmonMetadataKey.errorMessage] = "\(message)" }
        }
        let pair = "\(change.key.engine)/\(change.key.database)"
        switch change.kind {
        case .summaryChanged(let previous):
            if let previous { metadata[SyncmonMetadataKey.previousSummary] = "\(previous)" }
            let stalls = change.evaluation.stalls.map(\.description)
            if !stalls.isEmpty { metadata[SyncmonMetadataKey.stallReason] = "\(stalls.joined(separator: ","))" }
            let level = change.isHealthChange ? ChangeSeverity.ofChange(to: change.evaluation.summary, from: previous).logLevel : .debug
            metadata[SyncmonMetadataKey.messageID] = Self.messageID(of: change, folding: folded).metadataValue
            let cleared = folded.compactMap { if case .stallCleared(let reason) = $0.kind { reason.description } else { nil } }
            if !cleared.isEmpty, stalls.isEmpty { metadata[SyncmonMetadataKey.stallReason] = "\(cleared.joined(separator: ","))" }
            // A move inside one health state is a cycle of a healthy engine: debug only.
            self.logger.log(level: level, "\(pair): sync \(change.evaluation.summary)\(Self.why(change, previous: previous))", metadata: metadata)
        case .stallRaised(let reason):
            metadata[SyncmonMetadataKey.messageID] = MessageID.stallRaised.metadataValue
            metadata[SyncmonMetadataKey.stallReason] = "\(reason)"
            self.logger.log(level: ChangeSeverity.stallRaised.logLevel, "\(pair): stalled (\(reason))", metadata: metadata)
        case .stallCleared(let reason):
            metadata[SyncmonMetadataKey.messageID] = MessageID.stallCleared.metadataValue
            metadata[SyncmonMetadataKey.stallReason] = "\(reason)"
            self.logger.log(level: ChangeSeverity.stallCleared.logLevel, "\(pair): stall cleared (\(reason))", metadata: metadata)
        }
    }

    /// A summary change's MESSAGE_ID: the stall's when it says one raised (the pair is now
    /// `stalled`) or one cleared by a recovery, so that `journalctl MESSAGE_ID=` of a stall
    /// finds every stall; the summary change's otherwise (a stall ended by `engine_down` is
    /// that change, saying `was stalled`).
    static func messageID(of change: StatusChange, folding folded: [StatusChange]) -> MessageID {
        guard let first = folded.first else { return .summaryChanged }
        switch first.kind {
        case .stallRaised: return .stallRaised
        case .stallCleared: return change.evaluation.summary.hasSameHealth(as: .succeeded) ? .stallCleared : .summaryChanged
        case .summaryChanged: return .summaryChanged
        }
    }

    /// What a summary change's line says after the summary, short enough that the line fits 80
    /// columns on a terminal with ordinary names (time, level, pair, message): the stall reasons
    /// of `stalled`, the failing phase and code of `error` and `retrying`, else the summary
    /// before. The rest — the failure's own words, the summary before a stall or failure — is
    /// in the entry's fields (`SYNCMON_ERROR_MESSAGE`, `SYNCMON_PREVIOUS_SUMMARY`), shown at
    /// debug and in logfmt. `(no_progress)`, `(export partialTransfer)`, `(was stalled)`.
    static func why(_ change: StatusChange, previous: Summary?) -> String {
        switch change.evaluation.summary {
        case .stalled where !change.evaluation.stalls.isEmpty:
            return " (\(change.evaluation.stalls.map(\.description).joined(separator: ",")))"
        case .error, .retrying:
            if let failed = change.failedPhase { return " (\(failed.phase) \(failed.error.code))" }
        default:
            break
        }
        return previous.map { " (was \($0))" } ?? ""
    }

    /// Logs what a `syncmon forget` removed (docs/operations.md#forgetting-an-engine).
    package func reportForgotten(_ key: PairKey, allDatabases: Bool, count: Int) {
        var metadata: Logger.Metadata = [SyncmonMetadataKey.engine: "\(key.engine)"]
        if !allDatabases { metadata[SyncmonMetadataKey.database] = "\(key.database)" }
        let named = allDatabases ? "engine \(key.engine)" : "\(key.engine)/\(key.database)"
        guard count > 0 else {
            self.logger.info("forget \(named): not tracked, nothing to forget", metadata: metadata)
            return
        }
        self.logger.notice("forgot \(named) (\(count) pair\(count == 1 ? "" : "s")): it comes back if it speaks again", metadata: metadata)
    }

    /// Logs events a peer was not allowed to send, naming the peer and the engine; rate-limited
    /// with the other rejections.
    package func reportForbidden(engine: InlineName, count: Int, peer: PeerCredentials, now: Timestamp) {
        let decision = self.limiter.withLock { $0.admit(0, at: now) }
        guard decision.log else { return }
        self.logger.warning(
            "rejected \(count) event line(s) for engine \(engine) from uid \(peer.user) (gid \(peer.group), pid \(peer.process)): not in its allowed-users or allowed-groups",
            metadata: [
                SyncmonMetadataKey.messageID: MessageID.eventRejected.metadataValue,
                SyncmonMetadataKey.rejectReason: "forbidden",
                SyncmonMetadataKey.engine: "\(engine)",
                SyncmonMetadataKey.peerUID: "\(peer.user)",
                SyncmonMetadataKey.peerGID: "\(peer.group)",
                SyncmonMetadataKey.peerPID: "\(peer.process)",
            ]
        )
    }

    /// Logs rejected lines, at most a few per window; the rest are summed into the next entry.
    package func report(rejections: [Rejection], transport: Transport, now: Timestamp) {
        guard !rejections.isEmpty else { return }
        let decision = self.limiter.withLock { $0.admit(rejections.count, at: now) }
        guard decision.log, let first = rejections.first else { return }
        var metadata: Logger.Metadata = [
            SyncmonMetadataKey.messageID: MessageID.eventRejected.metadataValue,
            SyncmonMetadataKey.rejectReason: "\(first.reason)",
            SyncmonMetadataKey.transport: "\(transport)",
            SyncmonMetadataKey.rejectedCount: "\(decision.count)",
        ]
        if let field = first.field { metadata[SyncmonMetadataKey.field] = "\(field)" }
        let field = first.field.map { " (\($0))" } ?? ""
        self.logger.warning(
            "rejected \(decision.count) event line(s) on \(transport): \(first.reason)\(field)",
            metadata: metadata
        )
    }
}

extension StatusChange {
    /// Whether it is a summary change (not a stall raised or cleared).
    fileprivate var isSummaryChange: Bool {
        if case .summaryChanged = self.kind { true } else { false }
    }
}

/// A token bucket for rejection log entries; lines refused a log entry are counted into the next one.
struct RejectionLimiter: Sendable {
    let burst: Int
    let window: TimeSpan
    private var windowStart = Timestamp(microseconds: .min)
    private var logged = 0
    private var suppressed = 0

    init(burst: Int, window: TimeSpan) {
        self.burst = burst
        self.window = window
    }

    /// Whether to log now, and how many rejected lines the entry speaks for.
    mutating func admit(_ count: Int, at now: Timestamp) -> (log: Bool, count: Int) {
        if now.since(self.windowStart) >= self.window {
            self.windowStart = now
            self.logged = 0
        }
        guard self.logged < self.burst else {
            self.suppressed += count
            return (false, 0)
        }
        self.logged += 1
        defer { self.suppressed = 0 }
        return (true, count + self.suppressed)
    }
}
