/// The `--log-format` choice (`log-format` in the configuration file): how entries read on
/// stderr. The journal gets its structured fields whatever this says.
public enum LogFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One line a person reads at 80 columns: `2026-11-25T16:02:21.123Z warning a/shared: sync
    /// stalled (no_progress)`; the other fields only at `debug` (``TerminalLogFormatter``).
    case text
    /// The machine form: logfmt with the time, level, message and every field (``LogfmtFormatter``).
    case logfmt

    public var description: String { self.rawValue }
}
