import SyncmonAdapters
import SyncmonCore
import Testing

/// Exit statuses by each tool's table (docs/wrap.md): the code, and the class the core gives it.
@Suite("Exit status tables")
struct ExitStatusTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var tool: WrappedTool?
        var termination: ExitStatusTable.Termination
        var code: String?
        var errorClass: ErrorClass?
        var testDescription: String { "\(self.tool?.rawValue ?? "other") \(self.termination)" }

        init(_ tool: WrappedTool?, _ termination: ExitStatusTable.Termination, _ code: String?, _ errorClass: ErrorClass?) {
            self.tool = tool
            self.termination = termination
            self.code = code
            self.errorClass = errorClass
        }
    }

    static let cases: [Case] = [
        Case(.rclone, .exited(0), nil, nil),
        Case(.rclone, .exited(1), "uncategorizedError", .actionable),
        Case(.rclone, .exited(2), "uncategorizedError", .actionable),
        Case(.rclone, .exited(3), "directoryNotFound", .actionable),
        Case(.rclone, .exited(4), "fileNotFound", .actionable),
        Case(.rclone, .exited(5), "temporaryError", .transient),
        Case(.rclone, .exited(6), "noRetryError", .actionable),
        Case(.rclone, .exited(7), "fatalError", .actionable),
        Case(.rclone, .exited(8), "transferLimitExceeded", .actionable),
        Case(.rclone, .exited(9), "noFilesTransferred", .actionable),
        Case(.rclone, .exited(10), "exit10", .actionable),
        Case(.restic, .exited(0), nil, nil),
        Case(.restic, .exited(1), "fatal", .actionable),
        Case(.restic, .exited(3), "incompleteSnapshot", .actionable),
        Case(.restic, .exited(2), "exit2", .actionable),
        Case(.restic, .exited(10), "fatal", .actionable),
        Case(.restic, .exited(11), "fatal", .actionable),
        Case(.restic, .exited(12), "fatal", .actionable),
        Case(.restic, .exited(130), "interrupted", .actionable),
        Case(.rsync, .exited(0), nil, nil),
        Case(.rsync, .exited(1), "usageError", .actionable),
        Case(.rsync, .exited(2), "protocolIncompatibility", .actionable),
        Case(.rsync, .exited(3), "fileSelectionError", .actionable),
        Case(.rsync, .exited(4), "unsupportedAction", .actionable),
        Case(.rsync, .exited(5), "clientServerProtocolError", .actionable),
        Case(.rsync, .exited(6), "logFileError", .actionable),
        Case(.rsync, .exited(10), "socketIOError", .transient),
        Case(.rsync, .exited(11), "fileIOError", .actionable),
        Case(.rsync, .exited(12), "protocolStreamError", .transient),
        Case(.rsync, .exited(13), "diagnosticsError", .actionable),
        Case(.rsync, .exited(14), "ipcError", .actionable),
        Case(.rsync, .exited(15), "siblingCrashed", .actionable),
        Case(.rsync, .exited(16), "siblingTerminated", .actionable),
        Case(.rsync, .exited(19), "receivedSIGUSR1", .actionable),
        Case(.rsync, .exited(20), "interrupted", .actionable),
        Case(.rsync, .exited(21), "waitChildFailed", .actionable),
        Case(.rsync, .exited(22), "outOfMemory", .actionable),
        Case(.rsync, .exited(23), "partialTransfer", .actionable),
        Case(.rsync, .exited(24), nil, nil),
        Case(.rsync, .exited(25), "deleteLimitReached", .actionable),
        Case(.rsync, .exited(30), "dataTimeout", .transient),
        Case(.rsync, .exited(35), "connectionTimeout", .transient),
        Case(.rsync, .exited(124), "remoteShellFailed", .actionable),
        Case(.rsync, .exited(125), "remoteShellKilled", .actionable),
        Case(.rsync, .exited(126), "remoteCommandNotRunnable", .actionable),
        Case(.rsync, .exited(127), "remoteCommandNotFound", .actionable),
        Case(.rsync, .exited(255), "sshError", .transient),
        Case(.rsync, .exited(7), "exit7", .actionable),
        Case(nil, .exited(0), nil, nil),
        Case(nil, .exited(2), "exit2", .actionable),
        Case(nil, .exited(24), "exit24", .actionable),
        Case(nil, .exited(255), "exit255", .actionable),
        Case(nil, .signalled(15), "signalSIGTERM", .actionable),
        Case(.rclone, .signalled(9), "signalSIGKILL", .actionable),
        Case(.rsync, .signalled(2), "signalSIGINT", .actionable),
        Case(nil, .signalled(64), "signalSIG64", .actionable),
    ]

    @Test("code and class", arguments: cases)
    func outcome(_ testCase: Case) {
        let outcome = ExitStatusTable.outcome(of: testCase.termination, tool: testCase.tool, program: "job", lastError: nil)
        #expect(outcome.code == testCase.code)
        #expect(outcome.errorClass == testCase.errorClass)
        #expect(outcome.succeeded == (testCase.code == nil))
    }

    @Test(
        "the message: the tool's last words first, then what its table says the status means",
        arguments: [
            (WrappedTool?.some(.rclone), ExitStatusTable.Termination.exited(3), "rclone", String?.none, "rclone: directory not found (exit 3)"),
            (.rclone, .exited(3), "rclone", "Failed to sync: directory not found", "Failed to sync: directory not found (rclone: directory not found, exit 3)"),
            (
                .rclone, .exited(1), "rclone", "Failed to copy: mkdir /srv/dst: permission denied",
                "Failed to copy: mkdir /srv/dst: permission denied (rclone: uncategorised error, exit 1)"
            ),
            (.rclone, .exited(1), "rclone", nil, "rclone: uncategorised error (exit 1)"),
            (
                .restic, .exited(12), "restic", "Fatal: wrong password or no key found",
                "Fatal: wrong password or no key found (restic: wrong password, exit 12)"
            ),
            (nil, .exited(2), "borg", nil, "borg exited with status 2"),
            (nil, .exited(2), "borg", "Repository does not exist", "Repository does not exist"),
            (nil, .signalled(9), "borg", nil, "borg was killed by SIGKILL"),
        ])
    func message(tool: WrappedTool?, termination: ExitStatusTable.Termination, program: String, lastError: String?, expected: String) {
        #expect(ExitStatusTable.outcome(of: termination, tool: tool, program: program, lastError: lastError).message == expected)
    }

    @Test("every table code is a known code with the class the table gives it, and the transient ones are exactly the table's")
    func transientCodes() {
        let transient: Set<String> = ["temporaryError", "socketIOError", "protocolStreamError", "dataTimeout", "connectionTimeout", "sshError"]
        for testCase in Self.cases {
            guard let code = testCase.code, !code.hasPrefix("exit"), !code.hasPrefix("signal") else { continue }
            #expect(KnownErrorCode(InlineName(code)!) != nil, "\(code) is not a known code")
            #expect((testCase.errorClass == .transient) == transient.contains(code), "\(code)")
        }
    }
}
