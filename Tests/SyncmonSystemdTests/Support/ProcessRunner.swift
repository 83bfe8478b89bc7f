import Foundation

/// Runs a helper program (journalctl, the journald start script) and captures what it printed.
enum ProcessRunner {
    /// What a finished program printed and how it exited.
    struct Output: Sendable {
        /// The exit status.
        var status: Int32
        /// Everything written to stdout.
        var standardOutput: String
        /// Everything written to stderr.
        var standardError: String
    }

    /// Runs `executable` with `arguments` to completion.
    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        // Output goes to files rather than pipes: nothing has to drain a pipe while the child runs, so a chatty child
        // cannot block on a full pipe.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncmon-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        try output.close()
        try error.close()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        )
    }

    /// The first executable called `name` on the usual system paths, or `nil`.
    static func find(_ name: String) -> String? {
        ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"]
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
