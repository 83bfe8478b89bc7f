import Glibc

/// The `--log-target` choice: journald, stderr, or whichever fits the environment.
public enum LogTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// journald when the process runs under it or journald is present, stderr otherwise.
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

    /// The destination for this target, given what the environment says (SPEC §5).
    ///
    /// `auto` picks journald when `JOURNAL_STREAM` is set, because stderr then goes to the journal anyway and native
    /// entries keep their fields, or when the journal socket exists, because journald is running on this host.
    ///
    /// - Parameters:
    ///   - journalStream: The value of `JOURNAL_STREAM`, or `nil` when unset.
    ///   - journalSocketExists: Whether ``journalSocketPath`` exists and is a socket.
    public func destination(journalStream: String?, journalSocketExists: Bool) -> LogDestination {
        switch self {
        case .journald: return .journald
        case .stderr: return .stderr
        case .auto:
            if let journalStream, !journalStream.isEmpty { return .journald }
            return journalSocketExists ? .journald : .stderr
        }
    }

    /// The destination for this target in the current process, reading `JOURNAL_STREAM` and the journal socket.
    public func resolveDestination() -> LogDestination {
        self.destination(
            journalStream: getenv(Self.journalStreamVariable).map { String(cString: $0) },
            journalSocketExists: Self.isSocket(atPath: Self.journalSocketPath)
        )
    }

    /// Whether `path` names a Unix socket.
    static func isSocket(atPath path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFSOCK
    }
}
