import Foundation

/// Runs the built `syncmon` binary the way an operator would, for tests that check it from the
/// outside (exit codes, stdout, stderr). A one-shot run through ``ExternalCommand``; a daemon
/// that a test keeps running is a ``DaemonProcess``.
public struct SyncmonProcess {
    /// What a finished run left behind.
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// The `syncmon` binary of the build the tests belong to (next to the test bundle).
    public static var binaryPath: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // The test runner may live inside `*.xctest`; the binary sits beside that.
        while directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("syncmon").path
    }

    /// Runs `syncmon arguments…`, feeding `input` on standard input, and waits for it.
    public static func run(_ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) async throws -> Result {
        let result = try await ExternalCommand.run(self.binaryPath, arguments, input: input.map { Array($0) } ?? [], environment: environment)
        return Result(status: result.status, standardOutput: result.output, standardError: result.errors)
    }
}
