import Foundation
import SyncmonCore
import Testing

@testable import SyncmonRules

/// A recorded log under Tests/Fixtures/rules run through a shipped pack.
struct PackRecording: CustomStringConvertible, Sendable {
    var pack: String
    var file: String
    /// How many lines each rule must match over the whole recording.
    var counts: [String: Int]
    /// Strip lsyncd's `-nodaemon` time prefix, as Debian's syslog logging writes the lines.
    var asSyslog = false

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/rules")

    var description: String { "\(self.pack) on \(self.file)\(self.asSyslog ? " (syslog form)" : "")" }

    func lines() throws -> [String] {
        let text = try String(contentsOf: Self.directory.appendingPathComponent(self.file), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard self.asSyslog else { return lines }
        return lines.map { line in
            let prefix = line.prefix(9)
            let isTime =
                prefix.count == 9
                && prefix.enumerated().allSatisfy { index, character in
                    index == 8 ? character == " " : index == 2 || index == 5 ? character == ":" : character.isNumber
                }
            return isTime ? String(line.dropFirst(9)) : line
        }
    }
}

@Suite("Shipped packs on recorded output")
struct ShippedPackTests {
    static let time = Timestamp(seconds: 1_795_000_000)

    @Test(arguments: ShippedPacks.names)
    func everyShippedPackParses(name: String) throws {
        let pack = try #require(try ShippedPacks.pack(named: name))
        #expect(!pack.rules.isEmpty)
        #expect(ShippedPacks.text(named: name)!.hasPrefix("# "))  // the header says where the lines came from
        #expect(ShippedPacks.text(named: name)!.contains("Source:"))
    }

    static let recordings: [PackRecording] = [
        PackRecording(
            pack: "unison",
            file: "unison-2.52.1-repeat.log",
            counts: [
                "cycle-start": 12, "nothing-to-do": 5, "transferred": 7, "cycle-complete": 4, "cycle-skipped": 1,
                "cycle-failed": 2, "fatal-error": 1,
            ]
        ),
        PackRecording(
            pack: "lsyncd",
            file: "lsyncd-2.2.3-nodaemon.log",
            counts: ["startup-begin": 8, "startup-done": 2, "startup-retry": 6, "transfer-begin": 3, "transfer-done": 2, "transfer-failed": 1]
        ),
        PackRecording(
            pack: "lsyncd",
            file: "lsyncd-2.2.3-nodaemon.log",
            counts: ["startup-begin": 8, "startup-done": 2, "startup-retry": 6, "transfer-begin": 3, "transfer-done": 2, "transfer-failed": 1],
            asSyslog: true
        ),
        PackRecording(
            pack: "rclone-bisync",
            file: "rclone-1.60.1-bisync.log",
            counts: [
                "run-start": 4, "copied": 2, "run-ok": 2, "aborted-retryable": 1, "other-error": 2, "critical": 1,
                "resync-required": 1,
            ]
        ),
        PackRecording(pack: "nextcloudcmd", file: "nextcloudcmd-3.7.3-failures.log", counts: ["server-unreachable": 4]),
        PackRecording(
            pack: "onedrive",
            file: "onedrive-source-lines.log",
            counts: [
                "sync-start": 2, "download-done": 1, "upload-done": 1, "sync-complete": 1, "sync-items-failed": 1, "offline": 2,
                "resync-required": 1, "client-error": 1,
            ]
        ),
    ]

    /// Every line of a recording: the rules it matches, counted per rule; no line over the match
    /// limit; every event decodes.
    @Test(arguments: Self.recordings)
    func recordingMatchesAsExpected(recording: PackRecording) throws {
        let pack = try #require(try ShippedPacks.pack(named: recording.pack))
        var counts: [String: Int] = [:]
        for line in try recording.lines() {
            let evaluation = pack.evaluate(JournalLine(message: line, time: Self.time))
            #expect(evaluation.limitExceeded == 0, "\(line)")
            guard let match = evaluation.match else { continue }
            counts[match.rule.name, default: 0] += 1
            for event in match.events(engine: "e", database: "d") {
                if case .rejected(let rejection) = EventDecoder().decode(Array(event.utf8)) {
                    Issue.record("\(match.rule.name) on \(line): \(event) rejected: \(rejection)")
                }
            }
        }
        #expect(counts == recording.counts)
    }

    /// Single lines and the event types they must give.
    @Test(arguments: [
        ("unison", "Looking for changes", ["willFetchChanges", "willSendChanges"]),
        ("unison", "Nothing to do: replicas have not changed since last sync.", ["didFetchChanges", "didSendChanges"]),
        ("unison", "100%  00:00 ETA\r               \r[END] Copying f1", ["sentRecordZoneChanges"]),
        ("unison", "Synchronization complete at 14:46:50  (1 item transferred, 0 skipped, 0 failed)", ["didFetchChanges", "didSendChanges"]),
        (
            "unison", "Synchronization incomplete at 14:47:25  (1 item transferred, 1 skipped, 1 failed)",
            ["error", "error", "didFetchChanges", "didSendChanges"]
        ),
        // A conflict skipped: unison 2.52 says "complete" (and exits 1); found by the detection matrix.
        (
            "unison", "Synchronization complete at 14:47:23  (1 item transferred, 1 skipped, 0 failed)",
            ["error", "error", "didFetchChanges", "didSendChanges"]
        ),
        (
            "unison", "Synchronization complete at 17:01:43  (0 items transferred, 1 skipped, 0 failed)",
            ["error", "error", "didFetchChanges", "didSendChanges"]
        ),
        ("unison", "Sleeping for 2 seconds...", []),
        ("lsyncd", "14:48:10 Normal: Finished a list after exitcode: 23", ["error", "didSendChanges"]),
        ("lsyncd", "Normal: Finished a list after exitcode: 0", ["didSendChanges"]),
        ("lsyncd", "Normal: Finished a list after exitcode: 24", ["didSendChanges"]),
        ("lsyncd", "14:47:46 Normal: Calling rsync with filter-list of new/modified files/dirs", ["willSendChanges"]),
        ("lsyncd", "14:48:02 Normal: --- TERM signal, fading ---", []),
        ("rclone-bisync", "2026/11/26 14:48:23 ERROR : Bisync aborted. Must run --resync to recover.", ["error", "didFetchChanges", "didSendChanges"]),
        ("rclone-bisync", "INFO  : Bisync successful", ["didFetchChanges", "didSendChanges"]),
        ("onedrive", "Sync with Microsoft OneDrive is complete", ["networkStatus", "didFetchChanges", "didSendChanges"]),
        ("nextcloudcmd", "11-26 14:48:29:556 [ warning nextcloud.sync ]:\tFailed to sync", ["error", "didFetchChanges", "didSendChanges"]),
    ])
    func lineGivesEvents(pack name: String, line: String, types: [String]) throws {
        let pack = try #require(try ShippedPacks.pack(named: name))
        let events = pack.evaluate(JournalLine(message: line, time: Self.time)).match?.events(engine: "e", database: "d") ?? []
        let decoded = events.compactMap { event -> String? in
            guard case .event(let decoded) = EventDecoder().decode(Array(event.utf8)) else { return nil }
            return decoded.payload.type.description
        }
        #expect(decoded == types)
    }

    @Test func unisonFailureCarriesItsMessageAndCode() throws {
        let pack = try #require(try ShippedPacks.pack(named: "unison"))
        let line = "Synchronization incomplete at 14:47:25  (1 item transferred, 1 skipped, 1 failed)"
        let events = try #require(pack.evaluate(JournalLine(message: line, time: Self.time)).match).events(engine: "e", database: "d")
        #expect(
            events[0].contains(
                #""error":{"code":"syncIncomplete","message":"Synchronization incomplete at 14:47:25  (1 item transferred, 1 skipped, 1 failed)"}"#))
    }
}
