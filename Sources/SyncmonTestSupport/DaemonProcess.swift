import Foundation
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

/// A `syncmon daemon` child process for integration tests.
///
/// Each instance gets the test's own directory (events socket, state directory, notify socket,
/// logs) and a free TCP port, so tests can run side by side. `start` binds a `NOTIFY_SOCKET` the
/// test owns, spawns the built binary and returns once `READY=1` arrived (or throws with the
/// daemon's stderr when it exited or never became ready). `stop`, `kill` and `deinit` make sure
/// no daemon outlives its test.
public final class DaemonProcess: @unchecked Sendable {
    /// The test's directory; the daemon's files live in it.
    public let directory: String
    /// The HTTP port on 127.0.0.1.
    public let port: Int
    /// The push socket.
    public let eventsSocket: String
    /// `--state-dir`.
    public let stateDirectory: String
    /// The notification socket systemd would own: every datagram the daemon sent.
    public let notify: NotifySocket
    /// Where the daemon's stderr (its log with `--log-target stderr`) goes.
    public let standardErrorPath: String
    public let standardOutputPath: String
    private let process: Process

    /// `http://127.0.0.1:PORT`, for `syncmon status --url`.
    public var url: String { "http://127.0.0.1:\(self.port)" }
    /// The child's pid.
    public var pid: Int32 { self.process.processIdentifier }
    public var isRunning: Bool { self.process.isRunning }

    /// The daemon's stderr so far.
    public var standardError: String {
        (try? String(contentsOfFile: self.standardErrorPath, encoding: .utf8)) ?? ""
    }

    /// Starts a daemon in `directory` and waits for `READY=1`.
    ///
    /// - Parameters:
    ///   - arguments: extra flags after the standard ones (`--events-socket`, `--state-dir`,
    ///     `--listen`, `--log-target`).
    ///   - environment: added to (and overriding) a clean copy of the test's environment, from
    ///     which every systemd variable (`NOTIFY_SOCKET`, `WATCHDOG_*`, `LISTEN_*`, …) is removed.
    ///   - logTarget: `--log-target`; `nil` leaves it out.
    ///   - port: the HTTP port; a free one is found (and retried if taken meanwhile) when `nil`.
    ///   - waitForReady: `false` returns right after spawning (the notify socket still records).
    ///   - executable: what to run instead of the built binary (a wrapper script that execs it).
    public static func start(
        in directory: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        logTarget: String? = "stderr",
        port: Int? = nil,
        waitForReady: Bool = true,
        readyTimeout: Duration = .seconds(20),
        executable: String? = nil
    ) async throws -> DaemonProcess {
        var attempt = 0
        while true {
            attempt += 1
            let chosenPort = try port ?? FreePort.next()
            let spawn = {
                try DaemonProcess(
                    directory: directory,
                    port: chosenPort,
                    arguments: arguments,
                    environment: environment,
                    logTarget: logTarget,
                    executable: executable ?? SyncmonProcess.binaryPath
                )
            }
            // ETXTBSY: a script the test has just written (a wrapper) is still open for writing
            // in a child that another test's thread forked meanwhile, until that child execs.
            // Tried again until it has.
            let daemon =
                try await Polling.value(timeout: .seconds(5), interval: .milliseconds(10)) {
                    do { return try spawn() } catch let error as NSError where Self.isTextFileBusy(error) { return nil }
                } ?? spawn()
            guard waitForReady else { return daemon }
            if await daemon.waitForReady(timeout: readyTimeout) { return daemon }
            let log = daemon.standardError
            _ = await daemon.kill()
            // The port was free a moment ago but someone took it: try another.
            if port == nil, attempt < 4, log.lowercased().contains("address already in use") || log.contains("EADDRINUSE") { continue }
            throw TestSupportError("syncmon daemon did not become ready (attempt \(attempt)); stderr:\n\(log)")
        }
    }

    /// Whether spawning failed with ETXTBSY (Foundation wraps it, sometimes twice).
    private static func isTextFileBusy(_ error: NSError) -> Bool {
        if error.domain == NSPOSIXErrorDomain, error.code == Int(ETXTBSY) { return true }
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError).map(Self.isTextFileBusy) ?? false
    }

    private init(
        directory: String,
        port: Int,
        arguments: [String],
        environment: [String: String],
        logTarget: String?,
        executable: String
    ) throws {
        let serial = DaemonProcess.nextSerial()
        self.directory = directory
        self.port = port
        self.eventsSocket = directory + "/events.sock"
        self.stateDirectory = directory + "/state"
        self.standardErrorPath = directory + "/daemon-\(serial).stderr"
        self.standardOutputPath = directory + "/daemon-\(serial).stdout"
        self.notify = try NotifySocket(path: directory + "/notify-\(serial).sock")

        var childEnvironment = ProcessInfo.processInfo.environment
        for key in childEnvironment.keys
        where key == "NOTIFY_SOCKET" || key.hasPrefix("WATCHDOG_") || key.hasPrefix("LISTEN_") || key == "JOURNAL_STREAM"
            || key == "RUNTIME_DIRECTORY" || key == "STATE_DIRECTORY"
        {
            childEnvironment[key] = nil
        }
        childEnvironment["NOTIFY_SOCKET"] = self.notify.address.description
        for (key, value) in environment { childEnvironment[key] = value }

        var allArguments = [
            "daemon",
            "--events-socket", self.eventsSocket,
            "--state-dir", self.stateDirectory,
            "--listen", "127.0.0.1:\(port)",
        ]
        if let logTarget { allArguments += ["--log-target", logTarget] }
        // The host's own network view stays off unless a test asks for it (a later
        // `--host-network` wins): a test machine without a default route must not turn every
        // engine that never reports its network into no_network.
        allArguments += ["--host-network", "off"]
        allArguments += arguments

        _ = FileManager.default.createFile(atPath: self.standardErrorPath, contents: nil)
        _ = FileManager.default.createFile(atPath: self.standardOutputPath, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: self.standardErrorPath))
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: self.standardOutputPath))
        defer {
            try? errorHandle.close()
            try? outputHandle.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = allArguments
        process.environment = childEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        self.process = process
        do {
            try process.run()
        } catch {
            self.notify.close()
            throw error
        }
    }

    deinit {
        if self.process.isRunning {
            Glibc.kill(self.process.processIdentifier, SIGKILL)
            self.process.waitUntilExit()
        }
        self.notify.close()
    }

    /// Waits until `READY=1` arrived; `false` when the daemon exited first or time ran out.
    public func waitForReady(timeout: Duration = .seconds(20)) async -> Bool {
        await Polling.until(timeout: timeout, interval: .milliseconds(10)) {
            self.notify.datagrams.contains { $0.contains("READY=1") } || !self.process.isRunning
        } && self.notify.datagrams.contains { $0.contains("READY=1") }
    }

    /// Sends `signal` to the daemon.
    public func signal(_ signal: Int32) {
        if self.process.isRunning { Glibc.kill(self.process.processIdentifier, signal) }
    }

    /// How the daemon ended.
    public enum Exit: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// Still running after the timeout (it has been killed with SIGKILL since).
        case hung

        public var description: String {
            switch self {
            case .exited(let status): "exited \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            case .hung: "did not exit in time (killed)"
            }
        }
    }

    /// Waits for the daemon to exit, killing it with SIGKILL after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(10)) async -> Exit {
        let exited = await Polling.until(timeout: timeout, interval: .milliseconds(10)) { !self.process.isRunning }
        if !exited {
            Glibc.kill(self.process.processIdentifier, SIGKILL)
            self.process.waitUntilExit()
            return .hung
        }
        self.process.waitUntilExit()
        switch self.process.terminationReason {
        case .exit: return .exited(self.process.terminationStatus)
        case .uncaughtSignal: return .signalled(self.process.terminationStatus)
        @unknown default: return .exited(self.process.terminationStatus)
        }
    }

    /// SIGTERM, then waits for the exit.
    @discardableResult
    public func stop(timeout: Duration = .seconds(10)) async -> Exit {
        guard self.process.isRunning else { return await self.waitForExit(timeout: timeout) }
        self.signal(SIGTERM)
        return await self.waitForExit(timeout: timeout)
    }

    /// SIGKILL (no chance to clean up), then waits for the exit.
    @discardableResult
    public func kill() async -> Exit {
        self.signal(SIGKILL)
        return await self.waitForExit(timeout: .seconds(10))
    }

    // MARK: Conveniences

    /// `GET path` on the daemon's HTTP port.
    public func get(_ path: String, headers: [(String, String)] = []) throws -> BlockingHTTPClient.Response {
        try BlockingHTTPClient.get(port: self.port, path: path, headers: headers)
    }

    /// `/api/v1/status` (optionally for one engine) parsed, rows keyed by "engine/database".
    public func status(engine: String? = nil) throws -> [String: [String: Any]] {
        let path = engine.map { "/api/v1/status?engine=\($0)" } ?? "/api/v1/status"
        let response = try self.get(path)
        guard response.status == 200 else { throw TestSupportError("\(path) answered \(response.status): \(response.text)") }
        let document = try response.jsonObject()
        guard let engines = document["engines"] as? [[String: Any]] else { throw TestSupportError("no engines array: \(response.text)") }
        var rows: [String: [String: Any]] = [:]
        for row in engines {
            rows["\(row["engine"] ?? "?")/\(row["database"] ?? "?")"] = row
        }
        return rows
    }

    /// Polls `/api/v1/status` until `condition` holds for the rows; returns the last rows seen.
    @discardableResult
    public func waitForStatus(
        timeout: Duration = .seconds(10),
        _ condition: ([String: [String: Any]]) -> Bool
    ) async -> (met: Bool, rows: [String: [String: Any]]) {
        var last: [String: [String: Any]] = [:]
        let met = await Polling.until(timeout: timeout, interval: .milliseconds(25)) {
            guard let rows = try? self.status() else { return false }
            last = rows
            return condition(rows)
        }
        return (met, last)
    }

    /// `/metrics` parsed.
    public func metrics() throws -> MetricsText {
        let response = try self.get("/metrics")
        guard response.status == 200 else { throw TestSupportError("/metrics answered \(response.status)") }
        return try MetricsText(response.text)
    }

    /// Sends one-shot lines on a fresh push connection.
    public func send(lines: [String]) throws {
        try EventSocketWriter.send(lines: lines, to: self.eventsSocket)
    }

    /// Opens a push connection that stays open until closed.
    public func connect() throws -> EventSocketWriter {
        try EventSocketWriter(path: self.eventsSocket)
    }

    private static let serialLock = NSLock()
    nonisolated(unsafe) private static var serial = 0

    private static func nextSerial() -> Int {
        self.serialLock.lock()
        defer { self.serialLock.unlock() }
        self.serial += 1
        return self.serial
    }
}
