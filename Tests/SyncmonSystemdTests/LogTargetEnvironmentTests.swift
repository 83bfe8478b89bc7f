import Logging
import Testing

@testable import SyncmonSystemd

extension SystemIntegrationTests {
    /// ``LogTarget/resolveDestination()`` reading the real environment and file system.
    @Suite("Log target from the environment")
    struct LogTargetEnvironmentTests {
        @Test("JOURNAL_STREAM makes auto pick journald")
        func journalStream() {
            let environment = ProcessEnvironment([LogTarget.journalStreamVariable: "8:4242"])
            defer { environment.restore() }
            #expect(LogTarget.auto.resolveDestination() == .journald)
            #expect(LogHandlerFactory(target: .auto, logLevel: .info).destination == .journald)
            #expect(LogTarget.stderr.resolveDestination() == .stderr)
        }

        @Test("without JOURNAL_STREAM, auto follows the journal socket")
        func socketOnly() {
            let environment = ProcessEnvironment([LogTarget.journalStreamVariable: nil])
            defer { environment.restore() }
            let socketExists = LogTarget.isSocket(atPath: LogTarget.journalSocketPath)
            #expect(LogTarget.auto.resolveDestination() == (socketExists ? .journald : .stderr))
        }
    }
}
