import Foundation
import Logging
import SyncmonSockets
import SyncmonTestSupport
import Testing

@testable import SyncmonSystemd

/// `--log-target` resolution and the handler factory.
@Suite("Log target")
struct LogTargetTests {
    /// One `auto` case: the environment and where it must log.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var journalStream: String?
        var standardError: FileIdentity?
        var terminal: Bool
        var socket: Bool
        var expected: LogDestination

        var environment: LogEnvironment {
            LogEnvironment(
                journalStream: self.journalStream, standardError: self.standardError, standardErrorIsTerminal: self.terminal, journalSocketExists: self.socket)
        }

        var testDescription: String { self.name }
    }

    static let pipe = FileIdentity(device: 21, inode: 1_234_567)
    static let tty = FileIdentity(device: 24, inode: 3)

    static let autoCases: [Case] = [
        // Started by systemd: stderr is the journal stream it names.
        Case(name: "systemd service", journalStream: "21:1234567", standardError: pipe, terminal: false, socket: true, expected: .journald),
        Case(
            name: "systemd service, native socket missing", journalStream: "21:1234567", standardError: pipe, terminal: false, socket: false,
            expected: .journald),
        // The case: run in a terminal on a host with journald. The terminal wins.
        Case(name: "terminal, journald on the host", journalStream: nil, standardError: tty, terminal: true, socket: true, expected: .stderr),
        Case(name: "terminal, no journald", journalStream: nil, standardError: tty, terminal: true, socket: false, expected: .stderr),
        // A shell opened from a service inherits JOURNAL_STREAM, but its stderr is a terminal.
        Case(name: "inherited JOURNAL_STREAM, terminal", journalStream: "21:1234567", standardError: tty, terminal: true, socket: true, expected: .stderr),
        // Same device, other inode; same inode, other device: not the stream.
        Case(name: "other inode, terminal", journalStream: "21:1234568", standardError: tty, terminal: true, socket: true, expected: .stderr),
        Case(
            name: "other device, terminal", journalStream: "22:1234567", standardError: FileIdentity(device: 21, inode: 1_234_567), terminal: true,
            socket: true, expected: .stderr),
        // Not a terminal and journald runs: another supervisor, nohup, a redirect nobody reads.
        Case(name: "pipe, journald on the host", journalStream: nil, standardError: pipe, terminal: false, socket: true, expected: .journald),
        Case(
            name: "inherited JOURNAL_STREAM, pipe, journald on the host", journalStream: "9:9", standardError: pipe, terminal: false, socket: true,
            expected: .journald),
        Case(name: "stderr closed, journald on the host", journalStream: nil, standardError: nil, terminal: false, socket: true, expected: .journald),
        // No journald at all: a container.
        Case(name: "pipe, no journald", journalStream: nil, standardError: pipe, terminal: false, socket: false, expected: .stderr),
        Case(name: "inherited JOURNAL_STREAM, pipe, no journald", journalStream: "9:9", standardError: pipe, terminal: false, socket: false, expected: .stderr),
        Case(
            name: "stderr closed, JOURNAL_STREAM set, no journald", journalStream: "21:1234567", standardError: nil, terminal: false, socket: false,
            expected: .stderr),
        // Values systemd never writes match nothing.
        Case(name: "empty JOURNAL_STREAM", journalStream: "", standardError: pipe, terminal: false, socket: false, expected: .stderr),
        Case(name: "garbage JOURNAL_STREAM", journalStream: "21:1234567:0", standardError: pipe, terminal: false, socket: false, expected: .stderr),
    ]

    @Test("auto: journald under systemd or when stderr is no terminal and journald runs; stderr in a terminal", arguments: Self.autoCases)
    func auto(_ testCase: Case) {
        #expect(LogTarget.auto.destination(in: testCase.environment) == testCase.expected)
    }

    @Test("explicit targets ignore the environment", arguments: Self.autoCases)
    func explicit(_ testCase: Case) {
        #expect(LogTarget.journald.destination(in: testCase.environment) == .journald)
        #expect(LogTarget.stderr.destination(in: testCase.environment) == .stderr)
    }

    @Test(
        "JOURNAL_STREAM parses as systemd writes it: decimal device:inode",
        arguments: [
            ("8:12345", FileIdentity?.some(FileIdentity(device: 8, inode: 12_345))),
            ("0:0", FileIdentity(device: 0, inode: 0)),
            ("18446744073709551615:1", FileIdentity(device: .max, inode: 1)),
            ("", nil), (":", nil), ("8:", nil), (":8", nil), ("8", nil), ("8:1:2", nil),
            ("+8:1", nil), ("-8:1", nil), (" 8:1", nil), ("8:1 ", nil), ("0x8:1", nil), ("18446744073709551616:1", nil),
        ]
    )
    func journalStreamParsing(_ text: String, _ expected: FileIdentity?) {
        #expect(FileIdentity(journalStream: text) == expected)
        if let expected { #expect(expected.description == text) }
    }

    @Test("a descriptor's identity is its fstat device and inode; a closed one has none")
    func descriptorIdentity() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("syncmon-identity-\(UUID())")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let descriptor = open(file.path, O_RDONLY)
        try #require(descriptor >= 0)
        var status = stat()
        #expect(stat(file.path, &status) == 0)
        #expect(FileIdentity(fileDescriptor: descriptor) == FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
        close(descriptor)
        #expect(FileIdentity(fileDescriptor: descriptor) == nil)
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
        let socket = try NotifySocket.temporary(abstract: false)
        defer { socket.close() }
        #expect(LogTarget.isSocket(atPath: socket.address.description))
    }

    @Test("the factory makes the handler of its destination, at its level")
    func factory() {
        let journald = LogHandlerFactory(destination: .journald, logLevel: .debug)
        let stderr = LogHandlerFactory(destination: .stderr, logLevel: .notice)
        #expect((journald.makeHandler(label: "a") as? SharedLevelLogHandler)?.inner is JournaldLogHandler)
        #expect(journald.makeHandler(label: "a").logLevel == .debug)
        #expect((stderr.makeHandler(label: "b", metadataProvider: nil) as? SharedLevelLogHandler)?.inner is StderrLogHandler)
        #expect(stderr.makeHandler(label: "b").logLevel == .notice)
        // What LoggingSystem.bootstrap takes: this line stops compiling if the method reference loses Sendable.
        let bootstrap: @Sendable (String) -> any LogHandler = journald.makeHandler(label:)
        #expect((bootstrap("c") as? SharedLevelLogHandler)?.inner is JournaldLogHandler)
    }

    @Test("a level set on the factory reaches every handler it made, unless a logger set its own")
    func sharedLevel() {
        let factory = LogHandlerFactory(destination: .stderr, logLevel: .info)
        let first = Logger(label: "a", factory: { factory.makeHandler(label: $0) })
        var own = Logger(label: "b", factory: { factory.makeHandler(label: $0) })
        own.logLevel = .error
        #expect(first.logLevel == .info)
        factory.level.level = .debug
        #expect(first.logLevel == .debug)
        #expect(Logger(label: "c", factory: { factory.makeHandler(label: $0) }).logLevel == .debug)
        #expect(own.logLevel == .error)
        for level in Logger.Level.allCases {
            factory.level.level = level
            #expect(first.logLevel == level)
        }
    }

    @Test("metadata set on a logger reaches the handler that writes")
    func metadataPassesThrough() {
        let factory = LogHandlerFactory(destination: .stderr, logLevel: .info)
        var handler = factory.makeHandler(label: "a")
        handler[metadataKey: "k"] = "v"
        #expect((handler as? SharedLevelLogHandler)?.inner[metadataKey: "k"] == "v")
        #expect(handler.metadata == ["k": "v"])
    }
}
