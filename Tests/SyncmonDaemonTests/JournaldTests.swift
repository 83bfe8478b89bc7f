import Foundation
import SyncmonSystemd
import SyncmonTestSupport
import Testing

/// The daemon's journal entries as journald stores them (docs/operations.md#logs-and-journald), read back with journalctl.
@Suite("journald entries", .serialized)
struct JournaldTests {
    /// Makes sure journald answers; cancels (skips) the test when it cannot, unless CI is set.
    func requireJournald() throws {
        guard let reason = Journal.ensureJournald() else { return }
        if ExternalCommand.isCI {
            Issue.record("journald is required when CI is set: \(reason)")
            throw TestSupportError(reason)
        }
        try Test.cancel("skipped: journald is not available (\(reason)); set CI=1 to make this a failure")
    }

    @Test("summary changes and stalls are journal entries with MESSAGE_ID, PRIORITY and SYNCMON_ fields")
    func stateChangeEntries() async throws {
        try self.requireJournald()
        let engine = uniqueEngine("journal")
        try await withDaemon(arguments: ["--not-syncing-after", "1s"], logTarget: "journald") { daemon, _ in
            // Setup succeeds and no import starts: not_syncing after 1 s.
            // One connection for the whole test: the engine is tied to it.
            let connection = try daemon.connect()
            defer { connection.close() }
            try connection.write(lines: [
                EventLine.make(engine, "engineStarted"),
                EventLine.make(engine, "accountStatus", ["status": "available"]),
            ])
            // Time-driven changes are logged by the once-a-second evaluation, which then updates
            // STATUS=: wait for that, not only for the status API (evaluated per request).
            let stalled = await daemon.notify.waitFor { $0.value(of: "STATUS") == "1 engine: 1 stalled" }
            #expect(stalled != nil, "\(daemon.notify.datagrams)")
            // The import starts (recovery), then the export fails with an actionable error.
            try connection.write(lines: [EventLine.make(engine, "willFetchChanges")])
            #expect(await daemon.waitForStatus { summary($0, "\(engine)/private") == "in_progress" }.met)
            try connection.write(lines: [
                EventLine.make(engine, "willSendChanges"),
                EventLine.make(
                    engine, "sentRecordZoneChanges",
                    [
                        "savedRecords": 0, "deletedRecords": 0, "failedRecordDeletes": [], "failedRecordSaves": [["code": "quotaExceeded"]],
                    ]),
                EventLine.make(engine, "didSendChanges"),
            ])
            #expect(await daemon.waitForStatus { summary($0, "\(engine)/private") == "error" }.met)

            let entries = try await Journal.waitForEntries(matching: ["SYSLOG_IDENTIFIER": "syncmon", "SYNCMON_ENGINE": engine]) {
                $0.contains { $0["SYNCMON_SUMMARY"] == "error" && $0["MESSAGE_ID"] == MessageID.summaryChanged.rawValue }
            }
            // One entry per change: the stall that made the pair stalled, and its recovery, are
            // the stall's entries with the summary's fields (docs/operations.md, "Message IDs").
            let summaries = entries.filter { $0["SYNCMON_SUMMARY"] != nil }
            #expect(entries.count == 4, "\(entries)")
            #expect(summaries.map { $0["SYNCMON_SUMMARY"] ?? "?" } == ["not_started", "stalled", "in_progress", "error"], "\(entries)")
            #expect(
                summaries.map { $0["MESSAGE_ID"] ?? "?" } == [
                    MessageID.summaryChanged.rawValue, MessageID.stallRaised.rawValue, MessageID.stallCleared.rawValue,
                    MessageID.summaryChanged.rawValue,
                ])
            #expect(summaries.map { $0["SYNCMON_PREVIOUS_SUMMARY"] ?? "-" } == ["-", "not_started", "stalled", "in_progress"])
            // err for error, warning for stalled, notice for the recovery, info otherwise.
            #expect(summaries.map { $0["PRIORITY"] ?? "?" } == ["6", "4", "5", "3"])
            #expect(summaries[safe: 1]?["SYNCMON_STALL_REASON"] == "not_syncing")
            #expect(summaries[safe: 3]?["SYNCMON_PHASE"] == "export")
            #expect(summaries[safe: 3]?["SYNCMON_ERROR_CODE"] == "quotaExceeded")
            #expect(summaries[safe: 2]?["SYNCMON_ERROR_CODE"] == nil)

            let raised = entries.filter { $0["MESSAGE_ID"] == MessageID.stallRaised.rawValue }
            #expect(raised.count == 1)
            #expect(raised.first?["SYNCMON_STALL_REASON"] == "not_syncing")
            #expect(raised.first?["PRIORITY"] == "4")
            let cleared = entries.filter { $0["MESSAGE_ID"] == MessageID.stallCleared.rawValue }
            #expect(cleared.count == 1)
            #expect(cleared.first?["SYNCMON_STALL_REASON"] == "not_syncing")
            #expect(cleared.first?["PRIORITY"] == "5")

            for entry in entries {
                #expect(entry["SYNCMON_DATABASE"] == "private")
                #expect(entry["SYNCMON_ENGINE"] == engine)
                #expect(!(entry["MESSAGE"] ?? "").isEmpty)
                // Field names are [A-Z0-9_] only.
                for name in entry.keys where !name.hasPrefix("_") {
                    #expect(name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }, "field \(name)")
                }
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { self.indices.contains(index) ? self[index] : nil }
}
