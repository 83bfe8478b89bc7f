/// The block `syncmon status` prints after its table for the sources it cannot read
/// (docs/operations.md#syncmon-status): a Syncthing with a wrong API key or a refused address has
/// no pairs yet, and without this its trouble would be in the log alone.
///
/// ```
///
/// SOURCE  KIND       NOT CONNECTED SINCE  LAST ERROR
/// st      syncthing  10:54 (3 retries)    /rest/system/status: 403 (CSRF Error) — is the API key right?
/// ```
///
/// The error is never cut: it says what to fix. Only failing sources are listed; nothing is
/// printed while every source is connected.
public enum SourceTroubleText {
    /// The block for the failing ones among `sources`, starting with a blank line, or `""`.
    /// With `colors`, the header is bold, as the table's is.
    public static func render(_ sources: [SourceStatus], now: Timestamp, colors: Bool = false) -> String {
        let failing = sources.filter(\.isFailing)
        guard !failing.isEmpty else { return "" }
        let header = ["SOURCE", "KIND", "NOT CONNECTED SINCE", "LAST ERROR"]
        let rows = failing.map { source in
            [
                TerminalText.sanitized(source.name),
                TerminalText.sanitized(source.kind),
                self.since(source, now: now),
                TerminalText.sanitized(source.lastError ?? "-"),
            ]
        }
        let widths = (0..<3).map { column in ([header] + rows).map { TerminalText.width($0[column]) }.max() ?? 0 }
        var output = "\n"
        for (index, cells) in ([header] + rows).enumerated() {
            let line = (0..<3).map { TerminalText.padded(cells[$0], to: widths[$0]) + "  " }.joined() + cells[3]
            output += (colors && index == 0 ? "\u{1B}[1m" + line + "\u{1B}[0m" : line) + "\n"
        }
        return output
    }

    /// `10:54`, and how many times it was tried again since the daemon started.
    static func since(_ source: SourceStatus, now: Timestamp) -> String {
        let time = StatusTable.clock(source.since, now: now)
        switch source.reconnects {
        case 0: return time
        case 1: return time + " (1 retry)"
        default: return time + " (\(source.reconnects) retries)"
        }
    }
}
