import Glibc
import Logging
import Testing

@testable import SyncmonSystemd

extension SystemIntegrationTests {
    /// ``LogTarget/resolveDestination()`` and ``LogEnvironment/current()`` reading the real
    /// environment, descriptor 2 and file system.
    @Suite("Log target from the environment")
    struct LogTargetEnvironmentTests {
        /// What `auto` picks when `JOURNAL_STREAM` does not name stderr.
        static var withoutJournalStream: LogDestination {
            isatty(STDERR_FILENO) == 0 && LogTarget.isSocket(atPath: LogTarget.journalSocketPath) ? .journald : .stderr
        }

        @Test("the current environment is what the process has")
        func current() throws {
            let environment = ProcessEnvironment([LogTarget.journalStreamVariable: "8:4242"])
            defer { environment.restore() }
            let current = LogEnvironment.current()
            #expect(current.journalStream == "8:4242")
            #expect(current.standardError == FileIdentity(fileDescriptor: STDERR_FILENO))
            #expect(current.standardErrorIsTerminal == (isatty(STDERR_FILENO) != 0))
            #expect(current.journalSocketExists == LogTarget.isSocket(atPath: LogTarget.journalSocketPath))
        }

        @Test("JOURNAL_STREAM naming stderr's device and inode makes auto pick journald")
        func matchingJournalStream() throws {
            let standardError = try #require(FileIdentity(fileDescriptor: STDERR_FILENO))
            let environment = ProcessEnvironment([LogTarget.journalStreamVariable: standardError.description])
            defer { environment.restore() }
            #expect(LogTarget.auto.resolveDestination() == .journald)
            #expect(LogHandlerFactory(target: .auto, logLevel: .info).destination == .journald)
            #expect(LogTarget.stderr.resolveDestination() == .stderr)
        }

        @Test("JOURNAL_STREAM naming another file is not enough")
        func otherJournalStream() throws {
            let standardError = try #require(FileIdentity(fileDescriptor: STDERR_FILENO))
            let other = FileIdentity(device: standardError.device, inode: standardError.inode &+ 1)
            let environment = ProcessEnvironment([LogTarget.journalStreamVariable: other.description])
            defer { environment.restore() }
            #expect(LogTarget.auto.resolveDestination() == Self.withoutJournalStream)
        }

        @Test("without JOURNAL_STREAM, auto follows the terminal and the journal socket")
        func withoutJournalStream() {
            let environment = ProcessEnvironment([LogTarget.journalStreamVariable: nil])
            defer { environment.restore() }
            #expect(LogTarget.auto.resolveDestination() == Self.withoutJournalStream)
        }
    }
}
