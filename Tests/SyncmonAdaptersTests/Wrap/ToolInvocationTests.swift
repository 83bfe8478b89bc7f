import SyncmonAdapters
import Testing

/// The options wrap adds for each tool, unless the command already has them.
@Suite("Tool invocation")
struct ToolInvocationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var tool: WrappedTool
        var environment: [String: String] = [:]
        var expected: String
        var added: [String: String]
        var output: OutputOwnership
        var testDescription: String { self.command }
    }

    static let cases: [Case] = [
        Case(
            command: "rclone sync a remote:b", tool: .rclone,
            expected: "rclone --use-json-log --stats 5s --stats-log-level NOTICE sync a remote:b", added: [:],
            output: OutputOwnership(rcloneJSONLog: true, rcloneStats: true)),
        Case(
            command: "sudo -u backup rclone sync a remote:b --stats 1m", tool: .rclone,
            expected: "sudo -u backup rclone --use-json-log --stats-log-level NOTICE sync a remote:b --stats 1m", added: [:],
            output: OutputOwnership(rcloneJSONLog: true, rcloneStats: true)),
        Case(
            command: "rclone -v sync a b", tool: .rclone,
            expected: "rclone --use-json-log --stats 5s --stats-log-level NOTICE -v sync a b", added: [:],
            output: OutputOwnership(rcloneJSONLog: true, rcloneStats: false)),
        Case(
            command: "rclone --log-level INFO sync a b", tool: .rclone,
            expected: "rclone --use-json-log --stats 5s --stats-log-level NOTICE --log-level INFO sync a b", added: [:],
            output: OutputOwnership(rcloneJSONLog: true, rcloneStats: false)),
        Case(
            command: "rclone -q sync a b", tool: .rclone,
            expected: "rclone --use-json-log --stats 5s --stats-log-level ERROR -q sync a b", added: [:],
            output: OutputOwnership(rcloneJSONLog: true, rcloneStats: true)),
        Case(
            command: "rclone sync a b --use-json-log --stats=10s --stats-log-level=NOTICE", tool: .rclone,
            expected: "rclone sync a b --use-json-log --stats=10s --stats-log-level=NOTICE", added: [:], output: OutputOwnership()),
        Case(
            command: "rclone sync a b --log-file /var/log/rclone.log", tool: .rclone,
            expected: "rclone sync a b --log-file /var/log/rclone.log", added: [:], output: OutputOwnership()),
        Case(command: "rclone --syslog sync a b", tool: .rclone, expected: "rclone --syslog sync a b", added: [:], output: OutputOwnership()),
        Case(
            command: "restic backup /home", tool: .restic,
            expected: "restic --json backup /home", added: ["RESTIC_PROGRESS_FPS": "1"], output: OutputOwnership(resticJSON: true)),
        Case(
            command: "restic -r rest:http://h/r --password-file /etc/pw backup /home", tool: .restic,
            expected: "restic --json -r rest:http://h/r --password-file /etc/pw backup /home", added: ["RESTIC_PROGRESS_FPS": "1"],
            output: OutputOwnership(resticJSON: true)),
        Case(
            command: "restic backup --json /home", tool: .restic, environment: ["RESTIC_PROGRESS_FPS": "2"],
            expected: "restic backup --json /home", added: [:], output: OutputOwnership()),
        Case(
            command: "restic forget --keep-daily 7 --prune", tool: .restic,
            expected: "restic forget --keep-daily 7 --prune", added: [:], output: OutputOwnership()),
        Case(command: "restic -r /srv/repo check", tool: .restic, expected: "restic -r /srv/repo check", added: [:], output: OutputOwnership()),
        Case(
            command: "rsync -a src/ host:dst/", tool: .rsync,
            expected: "rsync --info=progress2 --no-h --outbuf=L -a src/ host:dst/", added: ["LC_ALL": "C"],
            output: OutputOwnership(rsyncProgress: true)),
        Case(
            command: "rsync -avP src/ host:dst/", tool: .rsync,
            expected: "rsync --outbuf=L -avP src/ host:dst/", added: ["LC_ALL": "C"], output: OutputOwnership()),
        Case(
            command: "rsync -a --progress --outbuf=N src/ dst/", tool: .rsync,
            expected: "rsync -a --progress --outbuf=N src/ dst/", added: ["LC_ALL": "C"], output: OutputOwnership()),
        Case(
            command: "rsync -a --info=progress2 src/ dst/", tool: .rsync,
            expected: "rsync --outbuf=L -a --info=progress2 src/ dst/", added: ["LC_ALL": "C"], output: OutputOwnership()),
        Case(
            command: "ionice -c3 rsync -e 'ssh -p 2222' -a src/ host:dst/", tool: .rsync,
            expected: "ionice -c3 rsync --info=progress2 --no-h --outbuf=L -e 'ssh -p 2222' -a src/ host:dst/", added: ["LC_ALL": "C"],
            output: OutputOwnership(rsyncProgress: true)),
    ]

    @Test("options and environment added", arguments: cases)
    func invocation(_ testCase: Case) throws {
        let arguments = CommandWrappersTests.words(testCase.command)
        let index = try #require(CommandWrappers.programIndex(in: arguments))
        let invocation = ToolInvocation(arguments: arguments, tool: testCase.tool, programIndex: index, environment: testCase.environment)
        #expect(invocation.arguments == CommandWrappersTests.words(testCase.expected))
        #expect(invocation.environment == testCase.added)
        #expect(invocation.output == testCase.output)
    }
}
