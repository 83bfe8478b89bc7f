import Foundation
import SyncmonAdapters
import Testing

/// One recorded run of a real tool (Tests/Fixtures/wrap), read back through its parser.
struct Recording: Sendable, CustomTestStringConvertible {
    var name: String
    var tool: WrappedTool
    var output: OutputOwnership
    /// How the run ended when it was recorded.
    var exitStatus: Int32

    var testDescription: String { self.name }

    /// Tests/Fixtures/wrap, found from this file.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/wrap")

    /// The bytes of one stream; a stream that was empty has no file.
    func bytes(_ stream: ToolOutputStream) -> [UInt8] {
        let suffix = stream == .standardOutput ? "stdout" : "stderr"
        let url = Self.directory.appendingPathComponent("\(self.name).\(suffix)")
        return (try? Data(contentsOf: url)).map { Array($0) } ?? []
    }

    /// What reading the run gives.
    struct Reading {
        var reports: [ToolReport] = []
        /// Every line with how it is shown.
        var lines: [(stream: ToolOutputStream, line: LineSplitter.Line, display: LineDisplay)] = []
        var lastError: String?

        var progress: [ProgressDelta] {
            self.reports.compactMap { if case .progress(let delta) = $0 { delta } else { nil } }
        }

        var problems: [ToolProblem] {
            self.reports.compactMap { if case .problem(let problem) = $0 { problem } else { nil } }
        }

        /// The sum of the progress deltas.
        var total: ProgressDelta {
            var total = ProgressDelta()
            for delta in self.progress { total.add(delta) }
            return total
        }

        func displays(_ stream: ToolOutputStream) -> [LineDisplay] {
            self.lines.filter { $0.stream == stream }.map(\.display)
        }
    }

    /// Reads standard output, then standard error (the recording does not keep how the two
    /// interleaved), split as wrap splits them.
    func read() -> Reading {
        var parser = self.tool.outputParser(output: self.output)
        var reading = Reading()
        for stream in [ToolOutputStream.standardOutput, .standardError] {
            var splitter = LineSplitter(splitsOnCarriageReturn: self.tool == .rsync && stream == .standardOutput)
            var lines = splitter.feed(self.bytes(stream))
            if let last = splitter.finish() { lines.append(last) }
            for line in lines {
                let parsed = parser.read(line.text, from: stream)
                reading.reports += parsed.reports
                reading.lines.append((stream, line, parsed.display))
            }
        }
        reading.lastError = parser.lastError
        return reading
    }

    /// The run's outcome by the tool's exit status table.
    func outcome(_ reading: Reading) -> RunOutcome {
        ExitStatusTable.outcome(of: .exited(self.exitStatus), tool: self.tool, program: self.tool.rawValue, lastError: reading.lastError)
    }
}
