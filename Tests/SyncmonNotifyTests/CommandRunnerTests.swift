import Foundation
import SyncmonNotify
import SyncmonTestSupport
import Testing

/// A command target run for real (docs/notifications.md): its input and environment, its exit
/// status and last stderr line as the reason, a deadline that stops it and its children, and
/// stderr kept bounded however much it prints.
@Suite("Command runner")
struct CommandRunnerTests {
    @Test("stdin and the environment reach the command; exit 0 is delivered")
    func delivered() throws {
        let directory = try TemporaryDirectory(prefix: "smcr")
        defer { directory.remove() }
        let out = directory.path("out")
        let outcome = CommandRunner.run(
            ["/bin/sh", "-c", "cat > \(out); echo \"$SYNCMON_EVENT $SYNCMON_PAIRS\" >> \(out)"], input: Array("{\"a\":1}\n".utf8),
            environment: ["SYNCMON_EVENT": "firing", "SYNCMON_PAIRS": "2"], timeout: 10)
        #expect(outcome == .delivered)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "{\"a\":1}\nfiring 2\n")
    }

    @Test(
        "failures say the status and the last stderr line",
        arguments: [
            (["/bin/sh", "-c", "echo first >&2; echo 'the last words' >&2; exit 3"], "/bin/sh exited with status 3: the last words"),
            (["/bin/sh", "-c", "exit 1"], "/bin/sh exited with status 1"),
            (["/bin/sh", "-c", "kill -9 $$"], "/bin/sh was killed by signal 9"),
            (["/no/such/program"], "cannot run /no/such/program: No such file or directory"),
        ] as [([String], String)]
    )
    func failed(argv: [String], reason: String) {
        #expect(CommandRunner.run(argv, input: [], environment: [:], timeout: 10) == .failed(reason))
    }

    @Test("a command past its timeout is stopped with its children, and fails")
    func timeout() {
        let start = Date()
        let outcome = CommandRunner.run(["/bin/sh", "-c", "sleep 60 & sleep 60"], input: [], environment: [:], timeout: 0.5)
        #expect(outcome == .failed("/bin/sh ran past its timeout of 0.5s and was stopped"))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test("a command ignoring SIGTERM is killed after the grace")
    func ignoresTerm() {
        let outcome = CommandRunner.run(["/bin/sh", "-c", "trap '' TERM; while :; do sleep 1; done"], input: [], environment: [:], timeout: 0.3)
        #expect(outcome == .failed("/bin/sh ran past its timeout of 0.3s and was stopped"))
    }

    @Test("megabytes on stderr and an input never read cost nothing and fail nothing")
    func loud() {
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let outcome = CommandRunner.run(
            ["/bin/sh", "-c", "head -c 50000000 /dev/zero >&2; echo done >&2; exit 0"], input: input, environment: [:], timeout: 30)
        #expect(outcome == .delivered)
        let failing = CommandRunner.run(
            ["/bin/sh", "-c", "yes line | head -c 20000000 >&2; echo tail >&2; exit 2"], input: input, environment: [:], timeout: 30)
        #expect(failing == .failed("/bin/sh exited with status 2: tail"))
    }
}
