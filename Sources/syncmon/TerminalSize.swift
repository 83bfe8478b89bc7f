import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// The size of the terminal on standard output, which the status table fits: its columns (or
/// `$COLUMNS` when stdout is no terminal, else 80: ``StatusTable/width(terminal:columnsVariable:)``)
/// and, on a terminal, its lines, which a `--watch` frame must not outgrow.
struct TerminalSize {
    var columns: Int
    /// Nil when stdout is no terminal: a pipe has no height.
    var lines: Int?

    /// Asked anew for each frame, so that a `--watch` follows a resized window.
    static func current() -> TerminalSize {
        var size = winsize()
        let isTerminal = isatty(STDOUT_FILENO) != 0 && ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0
        let terminal = isTerminal && size.ws_col > 0 ? (columns: Int(size.ws_col), lines: Int(size.ws_row)) : nil
        return TerminalSize(
            columns: StatusTable.width(terminal: terminal?.columns, columnsVariable: getenv("COLUMNS").map { String(cString: $0) }),
            lines: terminal.flatMap { $0.lines > 0 ? $0.lines : nil }
        )
    }
}
