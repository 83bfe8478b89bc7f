import Glibc

/// The `--log-target` choice: journald, stderr, or whichever fits the environment.
public enum LogTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// journald when systemd started the process, or when stderr is not a terminal and journald
    /// runs; stderr otherwise (see ``destination(in:)``).
    case auto
    /// Always journald (still falling back to stderr for any entry journald does not take).
    case journald
    /// Always stderr.
    case stderr

    /// Where journald listens for native-protocol entries.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// The environment variable systemd sets (`device:inode`) when stdout or stderr is connected to the journal.
    public static let journalStreamVariable = "JOURNAL_STREAM"

    public var description: String { self.rawValue }

    /// The destination for this target in `environment`.
    ///
    /// `auto` picks, in this order:
    /// 1. journald when systemd started the process: `$JOURNAL_STREAM` matches stderr, which goes to
    ///    the journal anyway, and native entries keep their structured fields;
    /// 2. stderr when stderr is a terminal: someone runs the daemon in front of them (`scripts/run.sh`)
    ///    and must see its log there, even on a host where journald runs;
    /// 3. journald when the journal socket exists: stderr is a pipe or file nobody watches (another
    ///    supervisor, `nohup`), and journald runs on this host;
    /// 4. stderr otherwise (a container without journald).
    public func destination(in environment: LogEnvironment) -> LogDestination {
        switch self {
        case .journald: return .journald
        case .stderr: return .stderr
        case .auto:
            if environment.standardErrorIsJournalStream { return .journald }
            if environment.standardErrorIsTerminal { return .stderr }
            return environment.journalSocketExists ? .journald : .stderr
        }
    }

    /// The destination for this target in the current process (``LogEnvironment/current()``).
    public func resolveDestination() -> LogDestination {
        self.destination(in: .current())
    }

    /// Whether `path` names a Unix socket.
    static func isSocket(atPath path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFSOCK
    }
}
