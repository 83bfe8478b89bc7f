import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonExposition
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// `promtool check metrics` on `/metrics`: on a realistic rendering and on a live daemon's answer.
///
/// The contract is "no findings at all" (docs/metrics.md#promtool): promtool must exit 0 and print
/// nothing. Any line it prints — a lint such as a type name inside a metric name, or a parse
/// error — fails these tests.
@Suite("promtool check metrics")
struct PromtoolMetricsTests {
    static let promtool = "/usr/bin/promtool"

    /// The fleet: the realistic engines plus one of every kind of trouble, as (seconds, line).
    static let fleetSteps: [(Int64, String)] = {
        var steps = realisticSteps
        for index in 0..<20 {
            let engine = "fleet-\(index).app_x"
            let database = ["private", "shared", "public"][index % 3]
            func add(_ seconds: Int64, _ type: String, _ fields: [String: Any] = [:]) {
                steps.append((seconds, line(engine, type, fields.merging(["database": database]) { $1 })))
            }
            add(0, "engineStarted", ["heartbeatSeconds": 5])
            add(1, "accountStatus", ["status": index % 7 == 0 ? "noAccount" : "available"])
            add(1, "networkStatus", ["available": index % 5 != 0])
            add(2, "willFetchChanges")
            if index % 4 == 0 {
                add(3, "didFetchRecordZoneChanges", ["zone": "z", "error": ["code": "zoneNotFound"]])
            }
            add(4, "didFetchChanges")
            add(5, "willSendChanges")
            add(
                6, "sentRecordZoneChanges",
                [
                    "savedRecords": index, "deletedRecords": 1, "failedRecordDeletes": [],
                    "failedRecordSaves": index % 3 == 0 ? [["code": "requestRateLimited", "retryAfter": 30]] : [],
                ])
            if index % 2 == 0 { add(7, "didSendChanges") }
            add(8, "stateUpdate", ["pendingRecordZoneChanges": index])
            if index % 6 == 0 { add(9, "engineStopped") }
            add(9, "containerEvent", ["kind": "setup", "id": "s\(index)", "started": "2026-11-21T12:00:00Z"])
        }
        return steps
    }()

    /// The fleet fed to a monitor at its step times.
    static func monitor() -> Monitor {
        var monitor = makeMonitor(Self.fleetSteps)
        monitor.count(Rejection(.malformed))
        monitor.count(Rejection(.unknownType))
        return monitor
    }

    /// promtool's verdict on `body`: its exit status and every non-empty line it printed.
    static func check(_ body: [UInt8]) async throws -> (status: Int32, findings: [String], output: String) {
        let result = try await ExternalCommand.run(Self.promtool, ["check", "metrics"], input: body)
        let findings = result.combined.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return (result.status, findings, result.combined)
    }

    /// Fails under CI, skips (cancels) otherwise, when promtool is not installed.
    func requirePromtool() throws {
        guard !FileManager.default.isExecutableFile(atPath: Self.promtool) else { return }
        if ExternalCommand.isCI {
            Issue.record("promtool is required when CI is set: apt-get install -y prometheus")
            throw TestSupportError("promtool missing")
        }
        try Test.cancel("skipped: promtool not found at \(Self.promtool) (apt-get install prometheus); set CI=1 to make this a failure")
    }

    @Test("a realistic exposition: promtool exits 0 and prints nothing")
    func realisticExposition() async throws {
        try self.requirePromtool()
        let renderer = MetricsRenderer(version: "0.1.0", revision: "abc")
        let body = renderer.render(
            monitor: Self.monitor(),
            received: [1234, 5],
            process: ProcessMetrics.current(),
            format: .prometheusText,
            now: at(600)
        )
        // Sanity: the rendering is the big one meant here.
        let metrics = try MetricsText(String(decoding: body, as: UTF8.self))
        #expect(metrics.value("syncmon_tracked_engines") == 22)

        let verdict = try await Self.check(body)
        #expect(verdict.findings.isEmpty, "promtool printed:\n\(verdict.output)")
        #expect(verdict.status == 0, "promtool exited \(verdict.status):\n\(verdict.output)")
    }

    @Test("a live daemon's /metrics: promtool exits 0 and prints nothing")
    func liveDaemon() async throws {
        try self.requirePromtool()
        // 1 s thresholds, so that stalls fire while the test runs and their series read 1.
        try await withDaemon(arguments: ["--not-syncing-after", "1s", "--no-progress-after", "1s"]) { daemon, _ in
            // The fleet's lines happen now, in order, on one connection kept open: engines that sent
            // engineStarted are tied to it and would all be engine_down once it closed. Bad lines
            // are rejected and counted by reason.
            let bad = ["{not json", #"{"v":2,"engine":"x","type":"heartbeat"}"#, #"{"v":1,"engine":"x","type":"noSuchType"}"#]
            let connection = try daemon.connect()
            defer { connection.close() }
            try connection.write(lines: Self.fleetSteps.map(\.1) + bad)
            #expect(await daemon.waitForStatus { $0.count == 22 }.met)
            #expect(await daemon.waitForStatus { rows in rows.values.contains { ($0["stalled"] as? [String])?.isEmpty == false } }.met)

            let response = try daemon.get("/metrics")
            #expect(response.status == 200)
            let metrics = try MetricsText(response.text)
            #expect(metrics.value("syncmon_tracked_engines") == 22)
            #expect(metrics.value("syncmon_status", ["engine": "photos", "database": "shared", "status": "error"]) == 1)
            #expect(metrics.samples("syncmon_summary").isEmpty)

            let verdict = try await Self.check(response.body)
            #expect(verdict.findings.isEmpty, "promtool printed:\n\(verdict.output)")
            #expect(verdict.status == 0, "promtool exited \(verdict.status):\n\(verdict.output)")
        }
    }

    @Test("the check can fail: a lint problem is reported and fails it")
    func checkCanFail() async throws {
        try self.requirePromtool()
        var body = MetricsRenderer(version: "0.1.0", revision: "abc").render(
            monitor: Self.monitor(), received: [1, 0], process: ProcessMetrics(), format: .prometheusText, now: at(600)
        )
        body += Array("# HELP syncmon_bad_counter A counter without _total.\n# TYPE syncmon_bad_counter counter\nsyncmon_bad_counter 1\n".utf8)
        let verdict = try await Self.check(body)
        // promtool reports the bad counter twice: no _total, and "counter" in the name.
        #expect(verdict.findings.count == 2, "\(verdict.output)")
        #expect(verdict.findings.allSatisfy { $0.contains("syncmon_bad_counter") }, "\(verdict.output)")
        #expect(verdict.status == 3)
    }

    @Test("the check can fail: the old syncmon_summary name is a finding")
    func oldNameFails() async throws {
        try self.requirePromtool()
        let body = Array("# HELP syncmon_summary Summary.\n# TYPE syncmon_summary gauge\nsyncmon_summary{status=\"ok\"} 1\n".utf8)
        let verdict = try await Self.check(body)
        #expect(verdict.findings == ["syncmon_summary metric name should not include type 'summary'"], "\(verdict.output)")
        #expect(verdict.status == 3)
    }
}
