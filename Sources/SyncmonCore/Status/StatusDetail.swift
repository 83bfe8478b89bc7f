/// The DETAIL of a status row (docs/operations.md#syncmon-status): why the pair has its summary,
/// in a few words — the stall reasons, the failing phase with its code, since when and the
/// failure's own message, until when it is throttled, what runs or last succeeded — and, behind
/// a summary that outranks `error` (stopped, engine_down, no_network, account_not_available), the
/// actionable failure it hides, which would otherwise surface only when the higher one clears.
public enum StatusDetail {
    /// The detail of `row` at `now`, before any cut or sanitizing (the table does both).
    public static func text(for row: StatusRow, now: Timestamp) -> String {
        var parts = [self.reason(for: row, now: now)].compactMap { $0 }
        if let hidden = self.hiddenFailure(of: row) {
            parts.append(self.describe(hidden.failure, of: hidden.phase, now: now))
        }
        return parts.isEmpty ? "-" : parts.joined(separator: "; ")
    }

    /// An outstanding actionable failure that the row's summary outranks: `no_network` over a
    /// setup that failed with `folderError` says `no_network` alone, yet the folder needs a look
    /// whether or not the network comes back.
    public static func hiddenFailure(of row: StatusRow) -> (phase: Phase, failure: OutstandingFailure)? {
        guard row.summary < .error, let shown = row.outstandingFailure, shown.failure.error.errorClass != .transient else { return nil }
        return shown
    }

    /// `export: quotaExceeded since 10:02 — <the failure's message>`: short, as the detail
    /// has some 30 to 45 columns, and the message (the why) matters more than filler words.
    public static func describe(_ failure: OutstandingFailure, of phase: Phase, now: Timestamp) -> String {
        let text = "\(phase): \(failure.error.code) since \(StatusTable.clock(failure.since, now: now))"
        guard let message = failure.error.message, !message.isEmpty else { return text }
        return text + " — " + message
    }

    /// The words for the summary itself, or `nil` when it needs none.
    static func reason(for row: StatusRow, now: Timestamp) -> String? {
        switch row.summary {
        case .stopped: return "engine stopped"
        // Down is one of two things (§2.2): heartbeats missed, or its push connection closed
        // without engineStopped; the row does not say which.
        case .engineDown: return "heartbeat or connection lost"
        case .noNetwork: return "offline"
        case .accountNotAvailable: return "account \(row.account)"
        case .error, .retrying: return row.outstandingFailure.map { self.describe($0.failure, of: $0.phase, now: now) }
        case .stalled: return self.stalls(of: row)
        case .throttled: return row.throttledUntil.map { "throttled until \(StatusTable.clock($0, now: now))" } ?? "throttled"
        case .notStarted: return self.setup(of: row, now: now)
        case .inProgress: return self.running(row, now: now)
        case .succeeded: return self.lastSuccesses(of: row, now: now)
        case .unknown: return row.unknownReason
        }
    }

    /// `no_progress`, `pending_not_draining (12 pending)`, `canary_late: hostB`.
    static func stalls(of row: StatusRow) -> String? {
        let reasons = row.stalls.map { reason in
            reason == .pendingNotDraining ? "\(reason) (\(self.pending(of: row)) pending)" : self.describe(reason, of: row)
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: ", ")
    }

    /// A stall reason in the row's words: a late canary names its late peers (`canary_late: hostB`).
    static func describe(_ reason: StallReason, of row: StatusRow) -> String {
        row.describe(reason)
    }

    /// Whether the pair's canary is late (§2.5), which `status --wait` does not count as in sync.
    public static func isCanaryLate(_ row: StatusRow) -> Bool {
        !(row.canary?.latePeers.isEmpty ?? true)
    }

    static func setup(of row: StatusRow, now: Timestamp) -> String {
        switch row.setup {
        case .inProgress(let since): "setup since \(StatusTable.clock(since, now: now))"
        case .succeeded(_, let ended): "set up \(StatusTable.clock(ended, now: now)), no cycle yet"
        case .notStarted, .failed: "no cycle yet"
        }
    }

    /// `import since 10:02, 3 pending`.
    static func running(_ row: StatusRow, now: Timestamp) -> String {
        var parts: [String] = []
        for phase in Phase.allCases {
            if case .inProgress(let since) = row[phase] { parts.append("\(phase) since \(StatusTable.clock(since, now: now))") }
        }
        let pending = self.pending(of: row)
        if pending > 0 { parts.append("\(pending) pending") }
        return parts.joined(separator: ", ")
    }

    /// `import 10:02, export 10:05`: when each phase last succeeded.
    static func lastSuccesses(of row: StatusRow, now: Timestamp) -> String {
        var parts: [String] = []
        for phase in [Phase.import, .export] {
            if case .succeeded(_, let ended) = row[phase] { parts.append("\(phase) \(StatusTable.clock(ended, now: now))") }
        }
        let pending = self.pending(of: row)
        if pending > 0 { parts.append("\(pending) pending") }
        return parts.isEmpty ? "in sync" : "last " + parts.joined(separator: ", ")
    }

    static func pending(of row: StatusRow) -> Int64 {
        row.pendingRecordZoneChanges.addingReportingOverflow(row.pendingDatabaseChanges).partialValue
    }
}
