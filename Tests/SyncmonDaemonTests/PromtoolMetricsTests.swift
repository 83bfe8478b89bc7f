import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonExposition
import SyncmonTestSupport
import Testing

/// `promtool check metrics` on a realistic `/metrics` rendering (SPEC §3).
///
/// SPEC §3 fixes the family name `syncmon_summary`, which promtool 2.42 lints ("metric name
/// should not include type 'summary'", exit 3). The project keeps the SPEC's name, so that one
/// finding is expected, and nothing else: any other finding fails.
@Suite("promtool check metrics")
struct PromtoolMetricsTests {
    static let promtool = "/usr/bin/promtool"
    static let knownFinding = "syncmon_summary metric name should not include type 'summary'"

    /// The fleet: the realistic engines plus one of every kind of trouble.
    static func monitor() -> Monitor {
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
            add(6, "sentRecordZoneChanges", [
                "savedRecords": index, "deletedRecords": 1, "failedRecordDeletes": [],
                "failedRecordSaves": index % 3 == 0 ? [["code": "requestRateLimited", "retryAfter": 30]] : [],
            ])
            if index % 2 == 0 { add(7, "didSendChanges") }
            add(8, "stateUpdate", ["pendingRecordZoneChanges": index])
            if index % 6 == 0 { add(9, "engineStopped") }
            add(9, "containerEvent", ["kind": "setup", "id": "s\(index)", "started": "2026-11-21T12:00:00Z"])
        }
        var monitor = makeMonitor(steps)
        monitor.count(Rejection(.malformed))
        monitor.count(Rejection(.unknownType))
        return monitor
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

    @Test("a realistic exposition has no finding but the known syncmon_summary lint")
    func realisticExposition() throws {
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

        let result = try ExternalCommand.run(Self.promtool, ["check", "metrics"], input: body)
        let findings = result.combined.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(findings == [Self.knownFinding], "promtool printed:\n\(result.combined)")
        #expect(result.status == 3, "a lint finding exits 3; got \(result.status)")
    }

    @Test("the check can fail: another lint problem is reported next to the known one")
    func checkCanFail() throws {
        try self.requirePromtool()
        var body = MetricsRenderer(version: "0.1.0", revision: "abc").render(
            monitor: Self.monitor(), received: [1, 0], process: ProcessMetrics(), format: .prometheusText, now: at(600)
        )
        body += Array("# HELP syncmon_bad_counter A counter without _total.\n# TYPE syncmon_bad_counter counter\nsyncmon_bad_counter 1\n".utf8)
        let result = try ExternalCommand.run(Self.promtool, ["check", "metrics"], input: body)
        let findings = result.combined.split(separator: "\n").filter { !$0.isEmpty }
        // promtool reports the bad counter twice (no _total; "counter" in the name) besides the known one.
        #expect(findings.count == 3, "\(result.combined)")
        #expect(findings.contains { $0.contains("syncmon_bad_counter") && $0.contains("_total") }, "\(result.combined)")
        #expect(result.status == 3)
    }
}
