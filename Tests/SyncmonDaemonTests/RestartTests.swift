import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// State across restarts (docs/operations.md#systemd): kept in --state-dir, restored at start, a corrupt file set aside.
@Suite("Restart and persisted state", .serialized)
struct RestartTests {
    /// The fields of a status row that persist (liveness does not).
    static let persistedKeys = ["summary", "stalled", "account", "network", "setup", "import", "export", "pending", "lastEvent"]

    @Test("after kill -9 a restart with the same state directory shows the same phases and summaries")
    func killAndRestart() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let first = try await DaemonProcess.start(in: directory.path)
        try first.send(lines: [
            EventLine.make("notes", "accountStatus", ["status": "available"]),
            EventLine.make("notes", "networkStatus", ["available": true]),
            EventLine.make("notes", "willFetchChanges"),
            EventLine.make("notes", "didFetchChanges"),
            EventLine.make("notes", "stateUpdate", ["pendingRecordZoneChanges": 5, "pendingDatabaseChanges": 2]),
            EventLine.make("photos", "willSendChanges", ["database": "shared"]),
            EventLine.make(
                "photos", "sentRecordZoneChanges",
                [
                    "database": "shared", "savedRecords": 1, "deletedRecords": 0, "failedRecordDeletes": [],
                    "failedRecordSaves": [["code": "quotaExceeded"]],
                ]),
            EventLine.make("photos", "didSendChanges", ["database": "shared"]),
            EventLine.make("mail", "willSendChanges"),
            EventLine.make("offline", "networkStatus", ["available": false]),
        ])
        let (met, before) = await first.waitForStatus {
            $0.count == 4 && summary($0, "photos/shared") == "error" && phaseState($0, "mail/private", "export") == "in_progress"
                && ($0["notes/private"]?["pending"] as? [String: Any])?["recordZone"] as? Int == 5
        }
        #expect(met, "rows: \(before)")
        // The lines went over one connection in order, so a save that holds the last line's pair
        // ("offline", created by it) holds everything before it too. (Comparing modification
        // times would race: the save may land before the status poll sees the rows.)
        let statePath = first.stateDirectory + "/state.json"
        let saved = await Polling.until(timeout: .seconds(10)) {
            (FileManager.default.contents(atPath: statePath)).map { String(decoding: $0, as: UTF8.self).contains("\"offline\"") } ?? false
        }
        #expect(saved, "state.json did not hold every pair within 10 s")
        #expect(await first.kill() == .signalled(SIGKILL))

        let second = try await DaemonProcess.start(in: directory.path)
        let after = try second.status()
        #expect(Set(after.keys) == Set(before.keys))
        for (pair, row) in before {
            for key in Self.persistedKeys {
                #expect(canonicalJSON(after[pair]?[key]) == canonicalJSON(row[key]), "\(pair).\(key)")
            }
            #expect(after[pair]?["up"] as? Bool == true)
        }
        let metrics = try second.metrics()
        #expect(metrics.value("syncmon_phase_failures_total", ["engine": "photos", "phase": "export"]) == 1)
        #expect(metrics.value("syncmon_records_sent_total", ["engine": "photos", "op": "save"]) == 1)
        #expect(await second.stop() == .exited(0))
        #expect(!FileManager.default.fileExists(atPath: statePath + ".tmp"))
    }

    @Test("a corrupt state file is set aside and the daemon still starts")
    func corruptStateFile() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let stateDirectory = directory.path("state")
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let garbage = Data("{\"version\":1,\"pairs\":[{\"engine\":".utf8) + Data([0xFF, 0x00, 0x13])
        try garbage.write(to: URL(fileURLWithPath: stateDirectory + "/state.json"))

        let daemon = try await DaemonProcess.start(in: directory.path)
        let files = try FileManager.default.contentsOfDirectory(atPath: stateDirectory)
        let aside = try #require(files.first { $0.hasPrefix("state.json.corrupt-") }, "files: \(files)")
        #expect(FileManager.default.contents(atPath: stateDirectory + "/" + aside) == garbage)
        #expect(try daemon.status().isEmpty)
        #expect(daemon.standardError.contains("corrupt"), "\(daemon.standardError)")
        #expect(daemon.standardError.contains(aside), "\(daemon.standardError)")

        // The daemon works and saves a good file again.
        try daemon.send(lines: [EventLine.make("notes", "willFetchChanges")])
        #expect(await daemon.waitForStatus { $0["notes/private"] != nil }.met)
        #expect(await daemon.stop() == .exited(0))
        let data = try Data(contentsOf: URL(fileURLWithPath: stateDirectory + "/state.json"))
        #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["pairs"] != nil)
    }

    @Test("a state directory that does not exist yet is created")
    func stateDirectoryCreated() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let nested = directory.path("deep/er/state")
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--state-dir", nested])
        try daemon.send(lines: [EventLine.make("notes", "heartbeat")])
        #expect(await daemon.waitForStatus { $0["notes/private"] != nil }.met)
        #expect(await Polling.until(timeout: .seconds(5)) { FileManager.default.fileExists(atPath: nested + "/state.json") })
        #expect(await daemon.stop() == .exited(0))
    }
}
