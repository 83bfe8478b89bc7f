import Foundation

/// Runs a helper program (promtool, gzip, journalctl, a script) to completion.
///
/// Input and output go through files, not pipes, so a chatty child never blocks on a full pipe
/// while the caller waits for it.
public enum ExternalCommand {
    /// How the program exited and what it printed.
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: Data
        public var standardError: Data

        public var output: String { String(decoding: self.standardOutput, as: UTF8.self) }
        public var errors: String { String(decoding: self.standardError, as: UTF8.self) }
        /// stdout then stderr, for "prints nothing else" checks and failure messages.
        public var combined: String { self.output + self.errors }
    }

    /// Runs `executable arguments…` with `input` on standard input, waiting for it on a thread
    /// of its own: a test that waits on the cooperative pool (two threads in CI) holds up every
    /// other test of the one `swift test` run for as long as the child runs.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: [UInt8] = [],
        environment: [String: String]? = nil
    ) async throws -> Result {
        try await ThreadExecutor.run { try self.runBlocking(executable, arguments, input: input, environment: environment) }
    }

    /// ``run(_:_:input:environment:)`` on the calling thread, for the few places with no task
    /// to suspend: a `deinit`, a test trait's condition evaluated once per run.
    public static func runBlocking(
        _ executable: String,
        _ arguments: [String],
        input: [UInt8] = [],
        environment: [String: String]? = nil
    ) throws -> Result {
        let directory = try TemporaryDirectory(prefix: "smx")
        defer { directory.remove() }
        let inputPath = directory.path("stdin")
        let outputPath = directory.path("stdout")
        let errorPath = directory.path("stderr")
        try Data(input).write(to: URL(fileURLWithPath: inputPath))
        try Data().write(to: URL(fileURLWithPath: outputPath))
        try Data().write(to: URL(fileURLWithPath: errorPath))
        let inputHandle = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer {
            try? inputHandle.close()
            try? outputHandle.close()
            try? errorHandle.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = inputHandle
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: try Data(contentsOf: URL(fileURLWithPath: outputPath)),
            standardError: try Data(contentsOf: URL(fileURLWithPath: errorPath))
        )
    }

    /// The first executable called `name` in `$PATH` or the usual system directories.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the tests run under CI (`CI` set and not empty): a missing tool or service is a
    /// failure there, not a skip.
    public static var isCI: Bool {
        ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
    }

    /// Decompresses gzip data with the system's `gzip -dc`.
    public static func gunzip(_ bytes: [UInt8]) async throws -> [UInt8] {
        guard let gzip = self.find("gzip") else { throw TestSupportError("gzip not found") }
        let result = try await self.run(gzip, ["-dc"], input: bytes)
        guard result.status == 0 else { throw TestSupportError("gzip -dc exited \(result.status): \(result.errors)") }
        return Array(result.standardOutput)
    }
}

/// Files of the package the tests belong to, found from this source file.
public enum PackageRoot {
    /// The package's root: the nearest ancestor of this file holding a `Package.swift`.
    public static var directory: String {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory.path }
            directory.deleteLastPathComponent()
        }
        return "."
    }

    public static func path(_ relative: String) -> String { self.directory + "/" + relative }
}
