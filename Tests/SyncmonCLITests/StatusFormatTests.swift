import Foundation
import SyncmonTestSupport
import Testing

/// `syncmon status --format table|json|nagios` (and `--json`) against a running daemon, as a
/// monitoring system runs it: stdout, exit status, nothing else.
@Suite("syncmon status --format", .serialized)
struct StatusFormatTests {
    /// A daemon holding one pair of each kind: ok, warning, two critical.
    ///
    /// `stuck` sends engineStarted on a connection that stays open until `body` returns, so that it
    /// is stalled (not_syncing after 1 s), not engine_down.
    static func withFleet(_ body: (DaemonProcess) async throws -> Void) async throws {
        let directory = try TemporaryDirectory(prefix: "smf")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--not-syncing-after", "1s"])
        do {
            let connection = try daemon.connect()
            defer { connection.close() }
            try connection.write(lines: [
                EventLine.make("fine", "willFetchChanges"),
                EventLine.make("fine", "didFetchChanges"),
                EventLine.make("offline", "networkStatus", ["available": false]),
                EventLine.make("broken", "willSendChanges"),
                EventLine.make(
                    "broken", "sentRecordZoneChanges",
                    [
                        "savedRecords": 0, "deletedRecords": 0, "failedRecordDeletes": [], "failedRecordSaves": [["code": "quotaExceeded"]],
                    ]),
                EventLine.make("broken", "didSendChanges"),
                EventLine.make("stuck", "engineStarted"),
                EventLine.make("stuck", "accountStatus", ["status": "available"]),
            ])
            let (met, rows) = await daemon.waitForStatus { rows in
                rows["fine/private"]?["summary"] as? String == "succeeded" && rows["offline/private"]?["summary"] as? String == "no_network"
                    && rows["broken/private"]?["summary"] as? String == "error" && rows["stuck/private"]?["summary"] as? String == "stalled"
            }
            #expect(met, "rows: \(rows)")
            try await body(daemon)
            await daemon.stop()
        } catch {
            await daemon.kill()
            throw TestSupportError("\(error)\n--- daemon stderr ---\n\(daemon.standardError)")
        }
    }

    @Test("--format nagios: one line, problems worst first with their reason or code, perfdata, Nagios exit codes")
    func nagios() async throws {
        try await Self.withFleet { daemon in
            let cases: [(arguments: [String], status: Int32, line: String)] = [
                (
                    [],
                    2,
                    "SYNCMON CRITICAL - 2 of 4 critical: broken/private error (quotaExceeded), stuck/private stalled (not_syncing), offline/private no_network | ok=1 warning=1 critical=2 unknown=0"
                ),
                (["--engine", "fine"], 0, "SYNCMON OK - 1 engine/database pair ok | ok=1 warning=0 critical=0 unknown=0"),
                (["--engine", "offline"], 1, "SYNCMON WARNING - 1 of 1 warning: offline/private no_network | ok=0 warning=1 critical=0 unknown=0"),
                (["--engine", "nosuch"], 3, "SYNCMON UNKNOWN - no engine named nosuch is tracked | ok=0 warning=0 critical=0 unknown=0"),
                (["--engine", "bad/name"], 3, "SYNCMON UNKNOWN - --engine must be 1-64 characters of [A-Za-z0-9._-], not bad/name"),
            ]
            for item in cases {
                let arguments = ["status", "--url", daemon.url, "--format", "nagios"] + item.arguments
                let result = try await SyncmonProcess.run(arguments)
                #expect(result.standardOutput == item.line + "\n", "\(arguments)")
                #expect(result.status == item.status, "\(arguments): \(result.standardOutput)")
                #expect(result.standardError.isEmpty, "\(arguments): \(result.standardError)")
            }
        }
    }

    @Test("--json is --format json; --format table is the default")
    func jsonAndTable() async throws {
        try await Self.withFleet { daemon in
            /// The document without what moves between two requests: "now", and the time of the
            /// last state save (a save can land between them on a slow machine, e.g. under TSan).
            func document(_ output: String) throws -> NSDictionary {
                var object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
                object["now"] = nil
                if var save = object["stateSave"] as? [String: Any] {
                    save["lastSave"] = nil
                    object["stateSave"] = save
                }
                return object as NSDictionary
            }
            let short = try await SyncmonProcess.run(["status", "--url", daemon.url, "--json"])
            let long = try await SyncmonProcess.run(["status", "--url", daemon.url, "--format", "json"])
            let both = try await SyncmonProcess.run(["status", "--url", daemon.url, "--format", "json", "--json"])
            #expect([short.status, long.status, both.status] == [2, 2, 2])
            #expect(try document(short.standardOutput) == document(long.standardOutput))
            #expect(try document(both.standardOutput) == document(long.standardOutput))

            let table = try await SyncmonProcess.run(["status", "--url", daemon.url])
            let explicit = try await SyncmonProcess.run(["status", "--url", daemon.url, "--format", "table"])
            #expect(table.status == 2)
            #expect(table.standardOutput.hasPrefix("ENGINE"))
            #expect(explicit.status == 2)
            #expect(explicit.standardOutput.hasPrefix("ENGINE"))
        }
    }

    @Test("--json with another --format, or an unknown format, is a usage error")
    func conflictingFormats() async throws {
        let conflict = try await SyncmonProcess.run(["status", "--json", "--format", "nagios"])
        #expect(conflict.status == 64)
        #expect(conflict.standardError.contains("--json is short for --format json"), "\(conflict.standardError)")
        let unknown = try await SyncmonProcess.run(["status", "--format", "xml"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("xml"), "\(unknown.standardError)")
    }

    @Test("--format nagios against no daemon: UNKNOWN with the reason on stdout, exit 3")
    func unreachable() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let port = refusing.port
        let result = try await SyncmonProcess.run(["status", "--url", "http://127.0.0.1:\(port)", "--format", "nagios"])
        #expect(result.status == 3)
        #expect(
            result.standardOutput.hasPrefix("SYNCMON UNKNOWN - daemon unreachable: cannot reach the daemon at http://127.0.0.1:\(port)"),
            "\(result.standardOutput)")
        #expect(result.standardOutput.filter { $0 == "\n" }.count == 1)
        #expect(!result.standardOutput.contains("|"))
        #expect(result.standardError.isEmpty)
    }

    @Test("--help documents --format")
    func help() async throws {
        let result = try await SyncmonProcess.run(["status", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("--format <format>"))
        #expect(result.standardOutput.contains("nagios"))
    }
}
