#if canImport(Glibc)
import Glibc
#endif

/// The terminal's alternate screen for `syncmon status --watch`: each refresh redraws it in
/// place, and leaving it (at exit, or on Ctrl-C or SIGTERM) brings back the screen and the
/// scrollback as they were before, with the cursor shown again — the way `less`, `top` and
/// `watch` behave, instead of a new table scrolling the history away every two seconds.
enum AlternateScreen {
    /// Switch to the alternate screen and hide the cursor (it would blink on the last line).
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
    /// Show the cursor and switch back to the normal screen, which restores the cursor's place.
    static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"
    /// Cursor home, then clear the screen: the start of every redraw.
    static let redrawSequence = "\u{1B}[H\u{1B}[2J"

    /// Enters the alternate screen, leaving it again when the process is interrupted or
    /// terminated (the handler only writes and exits, both async-signal-safe).
    static func enter() {
        self.write(self.enterSequence)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { _ in
                let sequence: StaticString = "\u{1B}[?25h\u{1B}[?1049l"
                _ = Glibc.write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
                _exit(0)
            }
        }
    }

    /// Leaves the alternate screen (on a normal exit).
    static func leave() {
        self.write(self.leaveSequence)
    }

    /// One frame: the screen cleared and `text` drawn from the top, in one write so that the
    /// terminal never shows a half-drawn table. The last line break is left out: on the bottom
    /// line it would scroll a frame that fills the window, header first, out of view.
    static func draw(_ text: String) {
        self.write(self.redrawSequence + (text.hasSuffix("\n") ? String(text.dropLast()) : text))
    }

    /// Writes `text` to stdout at once, past the stdio buffer (the signal handler writes there too).
    static func write(_ text: String) {
        fflush(nil)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
