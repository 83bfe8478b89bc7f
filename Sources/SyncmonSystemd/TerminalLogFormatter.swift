import Logging

/// Renders a log statement as the line a person reads on a terminal (docs/operations.md, "Where logs go"):
///
/// ```
/// 2026-11-25T16:02:21.123Z warning a/shared: sync stalled (no_progress)
/// ```
///
/// The time (UTC, milliseconds), the level, the pair (or source) the entry is about, the message — a state
/// change fits 80 columns with ordinary names (the event reporter keeps the rest in fields).
/// The thing an entry is about (an address, a path) and the reason of a failure
/// (`syncmon.reason`, an attached error) follow the message in brackets when it does not say
/// them. The other fields (message ID, summary, phase, …) are for the journal and for machines
/// (`--log-format logfmt`); with `fields` (the handler's level is `debug` or `trace`) they follow
/// as logfmt pairs. Control characters are escaped, so an entry is always one line.
public enum TerminalLogFormatter {
    /// Fields that say why something failed: shown after the message at every level.
    static let reasonKeys = [SyncmonMetadataKey.canaryError, SyncmonMetadataKey.canaryRule, SyncmonMetadataKey.reason, "error.message"]
    /// Fields that name the thing an entry is about (an address, a socket, a file), for entries
    /// whose message does not: "serving HTTP" alone does not say where.
    static let subjectKeys = [
        SyncmonMetadataKey.listen, SyncmonMetadataKey.eventsSocket, SyncmonMetadataKey.statePath, SyncmonMetadataKey.setAsidePath,
        SyncmonMetadataKey.endpoint, SyncmonMetadataKey.sourcePath, SyncmonMetadataKey.canaryPeer, SyncmonMetadataKey.notice,
    ]

    /// ` (subject, reason)` from the metadata, each unless the message or the reason says it
    /// already; empty when there is nothing to add. The why of a failure and the thing it is
    /// about are part of what a person must read, not fields for machines: "configuration
    /// reload failed; keeping the running configuration" alone says nothing.
    static func essentials(of message: String, in metadata: Logger.Metadata) -> String {
        func value(_ key: String) -> String? {
            guard let value = metadata[key]?.journalValue, !value.isEmpty, value != "-", !message.contains(value) else { return nil }
            return value
        }
        let reasons = self.reasonKeys.compactMap(value)
        let subjects = self.subjectKeys.compactMap(value).filter { subject in !reasons.contains { $0.contains(subject) } }
        let essentials = subjects + reasons
        return essentials.isEmpty ? "" : " (" + essentials.joined(separator: ", ") + ")"
    }

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
        let message = LogfmtFormatter.escapingControlCharacters(message + self.essentials(of: message, in: metadata))
        if let pair = self.pair(in: metadata) ?? self.source(in: metadata), !message.hasPrefix(pair + ":"), !message.hasPrefix(pair + " ") {
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

    /// A source's name from `syncmon.source`, for an entry about a source and no pair: the
    /// line names it as it names a pair (`notes: subscribe source connected`).
    static func source(in metadata: Logger.Metadata) -> String? {
        guard let source = metadata[SyncmonMetadataKey.source]?.journalValue, !source.isEmpty else { return nil }
        return source
    }

    /// The lower-case name of a level: `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
    public static func levelName(_ level: Logger.Level) -> String {
        level.rawValue
    }
}
