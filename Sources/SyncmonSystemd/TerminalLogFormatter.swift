import Logging

/// Renders a log statement as the line a person reads on a terminal (§5 v1.2):
///
/// ```
/// 2026-11-25T16:02:21.123Z warning a/shared: sync stalled (no_progress)
/// ```
///
/// The time (UTC, milliseconds), the level, the pair the entry is about, the message — a state
/// change stays under 100 characters, so it fits one line at 80 columns with ordinary names.
/// The reason of a failure (`syncmon.reason`, an attached error) follows the message in
/// brackets. The other fields (message ID, summary, phase, …) are for the journal and for machines
/// (`--log-format logfmt`); with `fields` (the handler's level is `debug` or `trace`) they follow
/// as logfmt pairs. Control characters are escaped, so an entry is always one line.
public enum TerminalLogFormatter {
    /// Fields that say why something failed: shown after the message at every level.
    static let reasonKeys = [SyncmonMetadataKey.reason, "error.message"]

    /// The longest message written, in characters: an engine can put 64 KiB into an error
    /// message, and a terminal is no place for it (the journal keeps it whole).
    public static let maximumMessageCharacters = 300

    /// The line for one statement, without the trailing newline.
    ///
    /// - Parameters:
    ///   - time: When the statement was made.
    ///   - level: Printed lower-case.
    ///   - message: The statement's message; prefixed with `engine/database: ` from the metadata
    ///     unless it starts with that already.
    ///   - metadata: Read for the pair; printed whole after the message when `fields` is set.
    ///   - fields: Whether to print every field too.
    public static func line(time: LogTime, level: Logger.Level, message: String, metadata: Logger.Metadata, fields: Bool = false) -> String {
        var line = time.rfc3339
        line += " "
        line += self.levelName(level)
        line += " "
        var message = message
        // The why of a failure is part of what a person must read, not a field for machines:
        // "configuration reload failed; keeping the running configuration" alone says nothing.
        for key in self.reasonKeys {
            if let reason = metadata[key]?.journalValue, !reason.isEmpty, !message.contains(reason) { message += " (\(reason))" }
        }
        message = LogfmtFormatter.escapingControlCharacters(message)
        if let pair = self.pair(in: metadata), !message.hasPrefix(pair + ":"), !message.hasPrefix(pair + " ") {
            line += LogfmtFormatter.escapingControlCharacters(pair)
            line += ": "
        }
        line += message.count > self.maximumMessageCharacters ? String(message.prefix(self.maximumMessageCharacters - 1)) + "…" : message
        if fields {
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                line += " "
                line += LogfmtFormatter.key(key)
                line += "="
                line += LogfmtFormatter.value(value.journalValue)
            }
        }
        return line
    }

    /// `engine/database`, or `engine` alone, from the statement's `syncmon.engine` and
    /// `syncmon.database`; `nil` for an entry about no engine.
    static func pair(in metadata: Logger.Metadata) -> String? {
        guard let engine = metadata[SyncmonMetadataKey.engine]?.journalValue, !engine.isEmpty else { return nil }
        guard let database = metadata[SyncmonMetadataKey.database]?.journalValue, !database.isEmpty else { return engine }
        return engine + "/" + database
    }

    /// The lower-case name of a level: `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
    public static func levelName(_ level: Logger.Level) -> String {
        level.rawValue
    }
}
