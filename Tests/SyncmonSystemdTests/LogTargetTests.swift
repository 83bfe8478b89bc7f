import Foundation
import Logging
import Testing

@testable import SyncmonSystemd

/// `--log-target` resolution (SPEC §5) and the handler factory.
@Suite("Log target")
struct LogTargetTests {
    @Test(
        "auto picks journald when JOURNAL_STREAM is set or the socket exists",
        arguments: [
            (String?.none, false, LogDestination.stderr),
            (nil, true, .journald),
            ("8:12345", false, .journald),
            ("8:12345", true, .journald),
            ("", false, .stderr),
        ]
    )
    func auto(journalStream: String?, socketExists: Bool, expected: LogDestination) {
        #expect(LogTarget.auto.destination(journalStream: journalStream, journalSocketExists: socketExists) == expected)
    }

    @Test("explicit targets ignore the environment")
    func explicit() {
        for (stream, socket) in [(String?.none, false), ("1:2", true)] {
            #expect(LogTarget.journald.destination(journalStream: stream, journalSocketExists: socket) == .journald)
            #expect(LogTarget.stderr.destination(journalStream: stream, journalSocketExists: socket) == .stderr)
        }
    }

    @Test("targets parse from their command-line spelling")
    func parsing() {
        #expect(LogTarget.allCases.map(\.rawValue) == ["auto", "journald", "stderr"])
        #expect(LogTarget(rawValue: "journald") == .journald)
        #expect(LogTarget(rawValue: "syslog") == nil)
    }

    @Test("only sockets count as the journal socket")
    func socketDetection() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("syncmon-not-a-socket-\(UUID())")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(!LogTarget.isSocket(atPath: file.path))
        #expect(!LogTarget.isSocket(atPath: "/nonexistent/syncmon/socket"))
        let listener = try NotifySocketListener(abstract: false)
        #expect(LogTarget.isSocket(atPath: listener.address))
    }

    @Test("the factory makes the handler of its destination, at its level")
    func factory() {
        let journald = LogHandlerFactory(destination: .journald, logLevel: .debug)
        let stderr = LogHandlerFactory(destination: .stderr, logLevel: .notice)
        #expect(journald.makeHandler(label: "a") is JournaldLogHandler)
        #expect(journald.makeHandler(label: "a").logLevel == .debug)
        #expect(stderr.makeHandler(label: "b", metadataProvider: nil) is StderrLogHandler)
        #expect(stderr.makeHandler(label: "b").logLevel == .notice)
        // What LoggingSystem.bootstrap takes: this line stops compiling if the method reference loses Sendable.
        let bootstrap: @Sendable (String) -> any LogHandler = journald.makeHandler(label:)
        #expect(bootstrap("c") is JournaldLogHandler)
    }
}
