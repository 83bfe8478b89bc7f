import Foundation
import Logging
import SyncmonSystemd
import Testing

extension SystemIntegrationTests {
    /// ``JournaldLogHandler`` against a real systemd-journald, read back with `journalctl -o json`.
    @Suite("journald round trip")
    struct JournaldIntegrationTests {
        /// The fields read back; journalctl adds its own `__` fields.
        static let fields = [
            "MESSAGE", "MESSAGE_ID", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC",
            "SYNCMON_LOGGER", "SYNCMON_ENGINE", "SYNCMON_DATABASE", "SYNCMON_SUMMARY", "SYNCMON_PREVIOUS_SUMMARY",
            "SYNCMON_PHASE", "SYNCMON_STALL_REASON", "SYNCMON_ERROR_CODE", "SYNCMON_ERROR_MESSAGE", "SYNCMON_TEST_CASE",
            "_TRANSPORT",
        ]

        @Test("entries keep MESSAGE_ID, PRIORITY, SYSLOG_IDENTIFIER and the SYNCMON_ fields")
        func roundTrip() async throws {
            if case .unavailable(let reason) = try JournaldAvailability.ensure() {
                // Where journald is known to work (CI runs scripts/start-journald.sh first), not reaching it is a
                // failure, not a reason to skip.
                if ProcessInfo.processInfo.environment[JournaldAvailability.requireVariable] == "1" {
                    Issue.record("journald is required (\(JournaldAvailability.requireVariable)=1): \(reason)")
                    return
                }
                try Test.cancel("journald integration test skipped: \(reason)")
            }
            // A value no other run shares: the entries of this run are found by it, whatever else is in the journal.
            let run = UUID().uuidString.lowercased()
            var logger = Logger(label: "syncmon.tests.journald") { JournaldLogHandler(label: $0, logLevel: .trace) }
            logger[metadataKey: "syncmon.test_run"] = "\(run)"

            logger.log(
                level: .warning,
                "Summary changed",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.summaryChanged.metadataValue,
                    SyncmonMetadataKey.engine: "notes",
                    SyncmonMetadataKey.database: "private",
                    SyncmonMetadataKey.summary: "stalled",
                    SyncmonMetadataKey.previousSummary: "succeeded",
                    "syncmon.test_case": "summary",
                ]
            )
            logger.log(
                level: .warning,
                "Stall raised",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.stallRaised.metadataValue,
                    SyncmonMetadataKey.engine: "notes",
                    SyncmonMetadataKey.database: "shared",
                    SyncmonMetadataKey.phase: "import",
                    SyncmonMetadataKey.stallReason: "not_syncing",
                    "syncmon.test_case": "stall",
                ]
            )
            /// An error with a multi-line description, to check it arrives as one field.
            struct QuotaError: Error, CustomStringConvertible {
                var description: String { "quota exceeded\nfor zone Notes" }
            }
            logger.error(
                "Export failed\nsecond line",
                error: QuotaError(),
                metadata: [
                    SyncmonMetadataKey.engine: "notes",
                    SyncmonMetadataKey.phase: "export",
                    SyncmonMetadataKey.errorCode: "quotaExceeded",
                    "syncmon.test_case": "multiline",
                ]
            )
            let large = String(repeating: "0123456789abcdef", count: 16_384)
            logger.info("\(large)", metadata: ["syncmon.test_case": "large"])
            let levels: [(Logger.Level, String)] = [
                (.trace, "7"), (.debug, "7"), (.info, "6"), (.notice, "5"), (.warning, "4"), (.error, "3"),
                (.critical, "2"),
            ]
            for (level, _) in levels {
                logger.log(level: level, "Level check", metadata: ["syncmon.test_case": "level-\(level)"])
            }

            let expectedCount = 4 + levels.count
            let entries = try await JournalReader.waitForEntries(
                count: expectedCount,
                matching: "SYNCMON_TEST_RUN",
                run,
                fields: Self.fields
            )
            try #require(entries.count == expectedCount, "read back \(entries.count) of \(expectedCount) entries")
            let byCase = Dictionary(entries.map { ($0["SYNCMON_TEST_CASE"]?.first ?? "", $0) }) { first, _ in first }

            for entry in entries {
                #expect(entry["SYSLOG_IDENTIFIER"] == ["syncmon"])
                #expect(entry["SYNCMON_LOGGER"] == ["syncmon.tests.journald"])
                #expect(entry["_TRANSPORT"] == ["journal"], "sent over the native protocol, not stdout")
                #expect(entry["CODE_FILE"] == ["SyncmonSystemdTests/JournaldIntegrationTests.swift"])
                #expect(entry["CODE_FUNC"] == ["roundTrip()"])
                #expect(entry["CODE_LINE"]?.first.flatMap { Int($0) } != nil)
            }

            let summary = try #require(byCase["summary"])
            #expect(summary["MESSAGE"] == ["Summary changed"])
            #expect(summary["MESSAGE_ID"] == [MessageID.summaryChanged.rawValue])
            #expect(summary["PRIORITY"] == ["4"])
            #expect(summary["SYNCMON_ENGINE"] == ["notes"])
            #expect(summary["SYNCMON_DATABASE"] == ["private"])
            #expect(summary["SYNCMON_SUMMARY"] == ["stalled"])
            #expect(summary["SYNCMON_PREVIOUS_SUMMARY"] == ["succeeded"])

            let stall = try #require(byCase["stall"])
            #expect(stall["MESSAGE_ID"] == [MessageID.stallRaised.rawValue])
            #expect(stall["PRIORITY"] == ["4"])
            #expect(stall["SYNCMON_DATABASE"] == ["shared"])
            #expect(stall["SYNCMON_PHASE"] == ["import"])
            #expect(stall["SYNCMON_STALL_REASON"] == ["not_syncing"])

            let multiline = try #require(byCase["multiline"])
            #expect(multiline["MESSAGE"] == ["Export failed\nsecond line"])
            #expect(multiline["MESSAGE_ID"] == nil)
            #expect(multiline["PRIORITY"] == ["3"])
            #expect(multiline["SYNCMON_ERROR_CODE"] == ["quotaExceeded"])
            #expect(multiline["SYNCMON_ERROR_MESSAGE"] == ["quota exceeded\nfor zone Notes"])

            // 256 KiB does not fit one datagram: libsystemd passes it in a memfd.
            #expect(byCase["large"]?["MESSAGE"] == [large])

            for (level, priority) in levels {
                #expect(byCase["level-\(level)"]?["PRIORITY"] == [priority], "\(level)")
            }
        }
    }
}
