import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A child process a wrap test runs beside itself (a server, `syncmon wrap`), with its output
/// in files, signals for its whole process tree, and a bounded wait.
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    let name: String
    let outputPath: String
    let errorPath: String

    /// Starts `executable arguments…` with `environment` added to the test's; output goes to
    /// `NAME.stdout` and `NAME.stderr` in `directory`.
    init(_ executable: String, _ arguments: [String], name: String, in directory: TemporaryDirectory, environment: [String: String] = [:]) throws {
        self.name = name
        self.outputPath = directory.path("\(name).stdout")
        self.errorPath = directory.path("\(name).stderr")
        _ = FileManager.default.createFile(atPath: self.outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: self.errorPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: self.outputPath))
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: self.errorPath))
        defer {
            try? output.close()
            try? error.close()
        }
        self.process.executableURL = URL(fileURLWithPath: executable)
        self.process.arguments = arguments
        self.process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        self.process.standardInput = FileHandle.nullDevice
        self.process.standardOutput = output
        self.process.standardError = error
        try self.process.run()
    }

    deinit {
        if self.process.isRunning { self.signal(SIGKILL) }
    }

    var pid: Int32 { self.process.processIdentifier }
    var isRunning: Bool { self.process.isRunning }
    var standardOutput: String { (try? String(contentsOfFile: self.outputPath, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOfFile: self.errorPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process and every descendant (an rsync daemon serves each client
    /// from a child of its own; stopping only the parent would stop nothing that matters).
    func signal(_ signal: Int32) {
        for pid in [self.pid] + self.descendants() { kill(pid, signal) }
    }

    /// The pids of the process's descendants now.
    func descendants() -> [Int32] {
        var pending = [self.pid]
        var found: [Int32] = []
        while let pid = pending.popLast() {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ Int32($0) }) where !found.contains(child) {
                    found.append(child)
                    pending.append(child)
                }
            }
        }
        return found
    }

    /// Waits for the exit and returns the status (128 + N for a signal); `nil` after `timeout`.
    func waitForExit(timeout: Duration) async -> Int32? {
        guard await Polling.until(timeout: timeout, interval: .milliseconds(50), { !self.process.isRunning }) else { return nil }
        self.process.waitUntilExit()
        return self.process.terminationReason == .uncaughtSignal ? 128 + self.process.terminationStatus : self.process.terminationStatus
    }

    /// Kills the tree and waits for the exit.
    func stop() async {
        guard self.process.isRunning else { return }
        self.signal(SIGCONT)
        self.signal(SIGKILL)
        _ = await self.waitForExit(timeout: .seconds(10))
    }
}
