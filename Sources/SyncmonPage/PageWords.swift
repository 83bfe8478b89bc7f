import SyncmonCore

/// Words the pages share: why a change happened, and cutting long text.
enum PageWords {
    /// `export: quotaExceeded — Storage full`, a stall's reasons, or an unknown's reason; empty
    /// when the change says no why (a recovery).
    static func why(_ change: HealthChange) -> String {
        if let code = change.code {
            var text = (change.phase.map { "\($0): " } ?? "") + code
            if let message = change.message, !message.isEmpty { text += " — " + message }
            return text
        }
        return change.reason ?? ""
    }

    /// `text` cut to at most `limit` characters, ending in `…` when cut.
    static func cut(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
