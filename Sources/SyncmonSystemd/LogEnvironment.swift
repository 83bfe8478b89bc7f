import Glibc

/// What `--log-target auto` decides on, read once from the process by ``current()``, so that the
/// decision itself (``LogTarget/destination(in:)``) is a pure function tests can feed any case.
public struct LogEnvironment: Sendable, Hashable {
    /// `$JOURNAL_STREAM`, or `nil` when unset.
    public var journalStream: String?
    /// What stderr (descriptor 2) is, or `nil` when it is not open.
    public var standardError: FileIdentity?
    /// Whether stderr is a terminal (isatty(3)): someone is watching it.
    public var standardErrorIsTerminal: Bool
    /// Whether ``LogTarget/journalSocketPath`` exists and is a socket: journald runs on this host.
    public var journalSocketExists: Bool

    public init(journalStream: String?, standardError: FileIdentity?, standardErrorIsTerminal: Bool, journalSocketExists: Bool) {
        self.journalStream = journalStream
        self.standardError = standardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.journalSocketExists = journalSocketExists
    }

    /// Whether systemd connected stderr to the journal: `$JOURNAL_STREAM` names stderr's own
    /// device and inode. A value inherited by a process whose stderr went elsewhere does not count.
    public var standardErrorIsJournalStream: Bool {
        guard let journalStream, let stream = FileIdentity(journalStream: journalStream), let standardError else { return false }
        return stream == standardError
    }

    /// This process's environment, now.
    public static func current() -> LogEnvironment {
        LogEnvironment(
            journalStream: getenv(LogTarget.journalStreamVariable).map { String(cString: $0) },
            standardError: FileIdentity(fileDescriptor: STDERR_FILENO),
            standardErrorIsTerminal: isatty(STDERR_FILENO) != 0,
            journalSocketExists: LogTarget.isSocket(atPath: LogTarget.journalSocketPath)
        )
    }
}
