import SyncmonCore

/// Exit statuses by each tool's documented table, as codes the core classes (docs/wrap.md):
/// rclone's lib/exitcode, restic's backup documentation, rsync's errcode.h and man page.
public enum ExitStatusTable {
    /// How a process ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// rclone 1.60 (lib/exitcode/exitcode.go). Its table calls 1 "syntax or usage error", but
    /// rclone exits 1 for every error it does not sort (resolveExitCode's default branch:
    /// "Failed to copy: mkdir …: permission denied", a remote it cannot open), so 1 reads as
    /// what it mostly is; 2 is the table's own "not otherwise categorised".
    static let rclone: [Int32: (KnownErrorCode, String)] = [
        1: (.uncategorizedError, "uncategorised error"),
        2: (.uncategorizedError, "error not otherwise categorised"),
        3: (.directoryNotFound, "directory not found"),
        4: (.fileNotFound, "file not found"),
        5: (.temporaryError, "temporary error, one that more retries might fix"),
        6: (.noRetryError, "less serious error that retries will not fix"),
        7: (.fatalError, "fatal error that retries will not fix"),
        8: (.transferLimitExceeded, "transfer limit exceeded (--max-transfer)"),
        9: (.noFilesTransferred, "no files transferred (--error-on-no-transfer)"),
    ]

    /// restic 0.14 (cmd/restic/main.go; doc/040_backup.rst), and the statuses 0.17 split out of
    /// 1 (doc/075_scripting.rst): still fatal, with their own words; 130 is SIGINT's.
    static let restic: [Int32: (KnownErrorCode, String)] = [
        1: (.fatal, "fatal error, no snapshot created"),
        3: (.incompleteSnapshot, "some source files could not be read, the snapshot is incomplete"),
        10: (.fatal, "the repository does not exist"),
        11: (.fatal, "the repository could not be locked"),
        12: (.fatal, "wrong password"),
        130: (.interrupted, "interrupted (SIGINT)"),
    ]

    /// rsync 3.2 (errcode.h, log.c, the man page's EXIT VALUES). 24 (files vanished before they
    /// could be transferred, normal on a live file system) is a success.
    static let rsync: [Int32: (KnownErrorCode, String)] = [
        1: (.usageError, "syntax or usage error"),
        2: (.protocolIncompatibility, "protocol incompatibility"),
        3: (.fileSelectionError, "errors selecting input/output files, dirs"),
        4: (.unsupportedAction, "requested action not supported"),
        5: (.clientServerProtocolError, "error starting client-server protocol"),
        6: (.logFileError, "daemon unable to append to log-file"),
        10: (.socketIOError, "error in socket I/O"),
        11: (.fileIOError, "error in file I/O"),
        12: (.protocolStreamError, "error in rsync protocol data stream"),
        13: (.diagnosticsError, "errors with program diagnostics"),
        14: (.ipcError, "error in IPC code"),
        15: (.siblingCrashed, "sibling process crashed"),
        16: (.siblingTerminated, "sibling process terminated abnormally"),
        19: (.receivedSIGUSR1, "received SIGUSR1"),
        20: (.interrupted, "received SIGINT, SIGTERM, or SIGHUP"),
        21: (.waitChildFailed, "waitpid() failed"),
        22: (.outOfMemory, "error allocating core memory buffers"),
        23: (.partialTransfer, "partial transfer due to error"),
        25: (.deleteLimitReached, "the --max-delete limit stopped deletions"),
        30: (.dataTimeout, "timeout in data send/receive"),
        35: (.connectionTimeout, "timeout waiting for daemon connection"),
        124: (.remoteShellFailed, "remote shell failed"),
        125: (.remoteShellKilled, "remote shell killed"),
        126: (.remoteCommandNotRunnable, "remote command could not be run"),
        127: (.remoteCommandNotFound, "remote command not found"),
        255: (.sshError, "ssh failed"),
    ]

    /// The statuses of `tool` that are successes besides 0.
    static func isSuccess(_ status: Int32, tool: WrappedTool?) -> Bool {
        status == 0 || (tool == .rsync && status == 24)
    }

    /// The table of `tool`.
    static func table(_ tool: WrappedTool) -> [Int32: (KnownErrorCode, String)] {
        switch tool {
        case .rclone: self.rclone
        case .restic: self.restic
        case .rsync: self.rsync
        }
    }

    /// The outcome of a run of `program` (the tool's name, or the command's) that ended as
    /// `termination`; `lastError` is the tool's last words, which make the better message.
    public static func outcome(of termination: Termination, tool: WrappedTool?, program: String, lastError: String?) -> RunOutcome {
        switch termination {
        case .signalled(let signal):
            let name = SignalNames.name(signal)
            return RunOutcome(code: "signal\(name)", message: "\(program) was killed by \(name)")
        case .exited(let status) where self.isSuccess(status, tool: tool):
            let message = status == 0 ? "\(program) succeeded" : "\(program) exited with status \(status), a success (\(lastError ?? "files vanished"))"
            return RunOutcome(code: nil, message: message)
        case .exited(let status):
            // The tool's own words first; then what its table says the status means, in words
            // (the code alone, `uncategorizedError`, is for machines).
            if let tool, let (code, meaning) = self.table(tool)[status] {
                let said = "\(program): \(meaning)"
                return RunOutcome(code: code.description, message: lastError.map { "\($0) (\(said), exit \(status))" } ?? "\(said) (exit \(status))")
            }
            return RunOutcome(code: "exit\(status)", message: lastError ?? "\(program) exited with status \(status)")
        }
    }
}

/// Signal names for `signal<NAME>` codes: the conventional names, `SIGTERM`, `SIGKILL`.
public enum SignalNames {
    /// Linux's numbering (x86-64 and arm64 share it).
    static let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
        9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        16: "SIGSTKFLT", 17: "SIGCHLD", 18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU",
        23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGIO",
        30: "SIGPWR", 31: "SIGSYS",
    ]

    /// `SIGTERM` for 15; `SIGRTMIN+3`-style names are not needed: `SIG<number>` for the rest.
    public static func name(_ signal: Int32) -> String {
        self.names[signal] ?? "SIG\(signal)"
    }
}
