import Foundation

/// Runs an external checker (promtool, a Python parser) with an exposition on standard input.
///
/// Input and output go through temporary files rather than pipes: an exposition is megabytes, and a
/// pipe would deadlock once its buffer filled while we waited for the process.
struct ExternalTool {
    /// What the process did.
    struct Result {
        var status: Int32
        var output: String
        var errors: String
        /// stdout and stderr together, for "must print nothing" checks and failure messages.
        var combined: String { self.output + self.errors }
    }

    let path: String

    /// Whether the tool exists and is executable.
    var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: self.path) }

    /// Whether the tests run under CI (`CI` set), where a missing tool is a failure, not a skip.
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

    func run(_ arguments: [String], input: [UInt8]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncmon-exposition-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("input")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorsURL = directory.appendingPathComponent("stderr")
        try Data(input).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: self.path)
        process.arguments = arguments
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorsHandle = try FileHandle(forWritingTo: errorsURL)
        defer {
            try? inputHandle.close()
            try? outputHandle.close()
            try? errorsHandle.close()
        }
        process.standardInput = inputHandle
        process.standardOutput = outputHandle
        process.standardError = errorsHandle
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            output: try String(contentsOf: outputURL, encoding: .utf8),
            errors: try String(contentsOf: errorsURL, encoding: .utf8)
        )
    }
}

extension ExternalTool {
    /// Debian's `prometheus` package installs it here.
    static let promtool = ExternalTool(path: "/usr/bin/promtool")

    /// Whether promtool tests should run: always under CI (and then fail if it is missing), otherwise
    /// only when it is installed.
    static var promtoolTestsEnabled: Bool { isCI || promtool.isAvailable }
}

extension ExternalTool {
    /// Debian's `python3`, used for the reference OpenMetrics parser of `python3-prometheus-client`.
    static let python = ExternalTool(path: "/usr/bin/python3")

    /// Whether `python3` can import the reference OpenMetrics parser.
    static let openMetricsParserAvailable: Bool = {
        guard python.isAvailable else { return false }
        let probe = try? python.run(["-c", "import prometheus_client.openmetrics.parser"], input: [])
        return probe?.status == 0
    }()
}
