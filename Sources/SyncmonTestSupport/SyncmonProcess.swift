import Foundation

/// Runs the built `syncmon` binary the way an operator would, for tests that check it from the
/// outside (exit codes, stdout, stderr).
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
    public static func run(_ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: self.binaryPath)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        // Read both pipes while the process runs so that neither fills up and blocks it.
        let collected = CollectedOutput()
        let group = DispatchGroup()
        for (pipe, isError) in [(output, false), (error, true)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isError: isError)
                group.leave()
            }
        }
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: collected.output, as: UTF8.self),
            standardError: String(decoding: collected.error, as: UTF8.self)
        )
    }
}

/// The two pipes' contents, filled from two threads.
private final class CollectedOutput: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var storage: (output: Data, error: Data) = (Data(), Data())

    func set(_ data: Data, isError: Bool) {
        self.lock.lock()
        defer { self.lock.unlock() }
        if isError { self.storage.error = data } else { self.storage.output = data }
    }

    var output: Data {
        self.lock.lock()
        defer { self.lock.unlock() }
        return self.storage.output
    }

    var error: Data {
        self.lock.lock()
        defer { self.lock.unlock() }
        return self.storage.error
    }
}
