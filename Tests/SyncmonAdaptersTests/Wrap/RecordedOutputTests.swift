import SyncmonAdapters
import SyncmonCore
import Testing

/// The parsers on what the real tools wrote (Tests/Fixtures/wrap): progress, problems, the
/// failure's message, the outcome, and what reaches wrap's own output.
@Suite("Recorded tool output")
struct RecordedOutputTests {
    /// What a recording must read as.
    struct Case: Sendable, CustomTestStringConvertible {
        var recording: Recording
        /// Progress reports (lines where something moved).
        var progressReports: Int
        /// Files done, summed over the reports.
        var files: Int64
        /// The codes of the problems, in order.
        var problems: [KnownErrorCode]
        /// How the failure's message starts (`nil`: no message from the tool).
        var lastError: String?
        /// The outcome's code, `nil` for a success.
        var outcome: String?
        var outcomeClass: ErrorClass?

        var testDescription: String { self.recording.name }
    }

    static let rcloneOwned = OutputOwnership(rcloneJSONLog: true, rcloneStats: true)
    static let resticOwned = OutputOwnership(resticJSON: true)
    static let rsyncOwned = OutputOwnership(rsyncProgress: true)

    static let cases: [Case] = [
        Case(
            recording: Recording(name: "rclone-sync", tool: .rclone, output: rcloneOwned, exitStatus: 0),
            progressReports: 5, files: 3, problems: [], lastError: nil, outcome: nil),
        Case(
            recording: Recording(name: "rclone-missing-directory", tool: .rclone, output: rcloneOwned, exitStatus: 3),
            progressReports: 0, files: 0,
            problems: [
                .itemFailed, .itemFailed, .itemFailed, .attemptFailed, .itemFailed, .itemFailed, .itemFailed, .attemptFailed,
                .itemFailed, .itemFailed, .itemFailed, .attemptFailed,
            ],
            lastError: "Failed to sync: directory not found", outcome: "directoryNotFound", outcomeClass: .actionable),
        Case(
            recording: Recording(name: "rclone-refused", tool: .rclone, output: rcloneOwned, exitStatus: 1),
            progressReports: 0, files: 0, problems: [],
            lastError: "Failed to create file system for \":webdav:dst\"", outcome: "uncategorizedError", outcomeClass: .actionable),
        Case(
            recording: Recording(name: "rclone-retry", tool: .rclone, output: rcloneOwned, exitStatus: 0),
            progressReports: 4, files: 3,
            problems: [.itemFailed, .itemFailed, .itemFailed, .itemFailed, .attemptFailed, .itemFailed, .itemFailed, .itemFailed, .attemptFailed],
            lastError: "Attempt 2/3 failed", outcome: nil),
        Case(
            recording: Recording(name: "restic-backup", tool: .restic, output: resticOwned, exitStatus: 0),
            progressReports: 2, files: 6, problems: [], lastError: nil, outcome: nil),
        Case(
            recording: Recording(name: "restic-retry", tool: .restic, output: resticOwned, exitStatus: 0),
            progressReports: 2, files: 4, problems: [.backendRetry, .backendRetry, .backendRetry, .backendRetry], lastError: nil, outcome: nil),
        Case(
            recording: Recording(name: "restic-unreadable", tool: .restic, output: resticOwned, exitStatus: 3),
            progressReports: 1, files: 0, problems: [.itemFailed, .itemFailed, .itemFailed],
            lastError: "Warning: at least one source file could not be read", outcome: "incompleteSnapshot", outcomeClass: .actionable),
        Case(
            recording: Recording(name: "restic-wrong-password", tool: .restic, output: resticOwned, exitStatus: 1),
            progressReports: 0, files: 0, problems: [],
            lastError: "Fatal: wrong password or no key found", outcome: "fatal", outcomeClass: .actionable),
        Case(
            recording: Recording(name: "rsync-transfer", tool: .rsync, output: rsyncOwned, exitStatus: 0),
            progressReports: 8, files: 3, problems: [], lastError: nil, outcome: nil),
        Case(
            recording: Recording(name: "rsync-unknown-module", tool: .rsync, output: rsyncOwned, exitStatus: 5),
            progressReports: 0, files: 0, problems: [],
            lastError: "@ERROR: Unknown module 'nomodule'", outcome: "clientServerProtocolError", outcomeClass: .actionable),
        Case(
            recording: Recording(name: "rsync-missing-source", tool: .rsync, output: rsyncOwned, exitStatus: 23),
            progressReports: 0, files: 0, problems: [.itemFailed],
            lastError:
                "rsync: [sender] change_dir \"/nonexistent/photos\" failed: No such file or directory (2); rsync error: some files/attrs were not transferred",
            outcome: "partialTransfer", outcomeClass: .actionable),
        Case(
            recording: Recording(name: "rsync-verbose-progress", tool: .rsync, output: OutputOwnership(), exitStatus: 0),
            progressReports: 8, files: 3, problems: [], lastError: nil, outcome: nil),
        Case(
            recording: Recording(name: "rsync-refused", tool: .rsync, output: rsyncOwned, exitStatus: 10),
            progressReports: 0, files: 0, problems: [.itemFailed],
            lastError: "rsync: [sender] failed to connect to 127.0.0.1 (127.0.0.1): Connection refused (111); rsync error: error in socket IO (code 10)",
            outcome: "socketIOError", outcomeClass: .transient),
    ]

    @Test("progress, problems, message and outcome", arguments: cases)
    func reading(_ testCase: Case) {
        let reading = testCase.recording.read()
        #expect(reading.progress.count == testCase.progressReports, "progress reports: \(reading.progress)")
        #expect(reading.progress.allSatisfy { $0.isProgress })
        #expect(reading.total.files == testCase.files)
        #expect(reading.problems.map(\.code) == testCase.problems)
        if let expected = testCase.lastError {
            #expect(reading.lastError?.hasPrefix(expected) == true, "last error: \(reading.lastError ?? "nil")")
        } else if testCase.outcome != nil {
            #expect(reading.lastError == nil)
        }
        let outcome = testCase.recording.outcome(reading)
        #expect(outcome.code == testCase.outcome)
        #expect(outcome.errorClass == testCase.outcomeClass)
        if let expected = testCase.lastError, testCase.outcome != nil { #expect(outcome.message.hasPrefix(expected)) }
    }

    @Test("rclone: stats wrap asked for are hidden; the rest of the JSON log reads as rclone's text log")
    func rcloneDisplay() {
        let reading = Recording(name: "rclone-missing-directory", tool: .rclone, output: Self.rcloneOwned, exitStatus: 3).read()
        let shown = reading.lines.compactMap { if case .replaced(let text) = $0.display { text } else { nil } }
        #expect(shown.first == "2026/11/24 02:44:23 ERROR : Local file system at /nonexistent/photos: error reading source root directory: directory not found")
        #expect(shown.contains("2026/11/24 02:44:23 ERROR : Attempt 1/3 failed with 1 errors and: directory not found"))
        // The stats line is read, not shown; rclone's final plain line passes through as it is.
        #expect(reading.displays(.standardError).filter { $0 == .hidden }.count == 1)
        #expect(reading.displays(.standardError).last == .unchanged)
        // Every line of a successful sync is a stats line.
        let sync = Recording(name: "rclone-sync", tool: .rclone, output: Self.rcloneOwned, exitStatus: 0).read()
        #expect(sync.displays(.standardError) == Array(repeating: .hidden, count: 5))
        // Unless the user asked to see stats (-v): then they read as rclone's text log.
        let shownStats = Recording(name: "rclone-sync", tool: .rclone, output: OutputOwnership(rcloneJSONLog: true), exitStatus: 0).read()
        guard case .replaced(let first) = shownStats.displays(.standardError).first else {
            Issue.record("the stats line is not rendered")
            return
        }
        #expect(first.hasPrefix("2026/11/24 02:44:31 NOTICE: "))
        #expect(first.contains(" NOTICE: \nTransferred:   \t    1.055 MiB / 4.768 MiB, 22%, 0 B/s, ETA -\n"))
        #expect(!first.hasSuffix("\n"))
    }

    @Test("rclone: with the user's own --use-json-log and -v, everything passes through unchanged")
    func rcloneUserOwned() {
        let reading = Recording(name: "rclone-retry", tool: .rclone, output: OutputOwnership(), exitStatus: 0).read()
        #expect(reading.lines.allSatisfy { $0.display == .unchanged })
        #expect(reading.progress.count == 4)
    }

    @Test("restic: status lines are hidden, the summary and errors read as restic's text")
    func resticDisplay() {
        let backup = Recording(name: "restic-backup", tool: .restic, output: Self.resticOwned, exitStatus: 0).read()
        #expect(backup.displays(.standardOutput).filter { $0 == .hidden }.count == 4)
        #expect(
            backup.displays(.standardOutput).last
                == .replaced(
                    """
                    Files:           6 new,     0 changed,     0 unmodified
                    Dirs:            1 new,     0 changed,     0 unmodified
                    Added to the repository: 28.614 MiB
                    processed 6 files, 28.610 MiB in 0:06
                    snapshot 04e6b0d4 saved
                    """))
        let unreadable = Recording(name: "restic-unreadable", tool: .restic, output: Self.resticOwned, exitStatus: 3).read()
        #expect(
            unreadable.displays(.standardError).prefix(3) == [
                .replaced("error: /tmp/wraplab/rec/src2/d (during scan)"),
                .replaced("error: src2/d (during archival)"),
                .replaced("error: /tmp/wraplab/rec/src2/secret.txt (during archival): open src2/secret.txt (errno 13)"),
            ])
        // restic 0.14 writes the error itself as {}: the problem still names the item.
        #expect(unreadable.problems.first?.message == "error: /tmp/wraplab/rec/src2/d (during scan)")
        #expect(unreadable.displays(.standardError).last == .unchanged)
    }

    @Test("rsync: progress2 records, separated by \\r, are read and hidden; other lines pass through")
    func rsyncDisplay() {
        let transfer = Recording(name: "rsync-transfer", tool: .rsync, output: Self.rsyncOwned, exitStatus: 0).read()
        let records = transfer.lines.filter { !$0.line.isBareCarriageReturn }
        #expect(records.count == 10)
        #expect(records.allSatisfy { $0.display == .hidden })
        #expect(transfer.total.bytes == 5_000_006)
        let verbose = Recording(name: "rsync-verbose-progress", tool: .rsync, output: OutputOwnership(), exitStatus: 0).read()
        #expect(verbose.lines.allSatisfy { $0.display == .unchanged })
        #expect(verbose.lines.contains { $0.line.text == "sent 5,001,499 bytes  received 88 bytes  2,000,634.80 bytes/sec" })
    }
}
