import Foundation
import SyncmonTestSupport

/// An external checker (promtool, a Python parser) run with an exposition on standard input,
/// through ``ExternalCommand`` (files, not pipes: an exposition is megabytes).
struct ExternalTool {
    let path: String

    /// Whether the tool exists and is executable.
    var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: self.path) }

    /// Whether the tests run under CI (`CI` set), where a missing tool is a failure, not a skip.
    static var isCI: Bool { ExternalCommand.isCI }

    func run(_ arguments: [String], input: [UInt8]) async throws -> ExternalCommand.Result {
        try await ExternalCommand.run(self.path, arguments, input: input)
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
        let probe = try? ExternalCommand.runBlocking(python.path, ["-c", "import prometheus_client.openmetrics.parser"])
        return probe?.status == 0
    }()
}
