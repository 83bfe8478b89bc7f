import SyncmonSystemd
import Testing

/// journald's field-name rule and the mapping of swift-log metadata keys to fields.
@Suite("Journal field names")
struct JournalFieldNameTests {
    @Test(
        "journald's rule: [A-Z0-9_], not starting with _ or a digit, at most 64 bytes",
        arguments: [
            ("MESSAGE", true),
            ("SYNCMON_ENGINE", true),
            ("A1_", true),
            (String(repeating: "A", count: 64), true),
            (String(repeating: "A", count: 65), false),
            ("", false),
            ("_PID", false),
            ("1ABC", false),
            ("syncmon_engine", false),
            ("SYNCMON.ENGINE", false),
            ("SYNCMON-ENGINE", false),
            ("ÄRGER", false),
        ]
    )
    func validity(name: String, isValid: Bool) {
        #expect(JournalFieldName.isValid(name) == isValid)
        #expect((JournalFieldName(name) != nil) == isValid)
    }

    @Test(
        "metadata keys map to SYNCMON_ fields",
        arguments: [
            ("syncmon.engine", "SYNCMON_ENGINE"),
            ("syncmon.database", "SYNCMON_DATABASE"),
            ("syncmon.summary", "SYNCMON_SUMMARY"),
            ("syncmon.previous_summary", "SYNCMON_PREVIOUS_SUMMARY"),
            ("syncmon.phase", "SYNCMON_PHASE"),
            ("syncmon.stall_reason", "SYNCMON_STALL_REASON"),
            ("syncmon.error_code", "SYNCMON_ERROR_CODE"),
            ("a.b-c", "SYNCMON_A_B_C"),
            ("engine", "SYNCMON_ENGINE"),
            ("error.message", "SYNCMON_ERROR_MESSAGE"),
            ("HTTP.status", "SYNCMON_HTTP_STATUS"),
            ("..a..b..", "SYNCMON_A_B"),
            ("2fa", "SYNCMON_2FA"),
            ("_private", "SYNCMON_PRIVATE"),
            ("größe", "SYNCMON_GR_E"),
            ("message_id", "MESSAGE_ID"),
            ("MESSAGE_ID", "MESSAGE_ID"),
        ]
    )
    func metadataKeyMapping(key: String, field: String) {
        #expect(JournalFieldName(metadataKey: key)?.rawValue == field)
    }

    @Test("the SyncmonMetadataKey constants give exactly the fields docs/operations.md#logs-and-journald names")
    func specFields() {
        let mapped = [
            SyncmonMetadataKey.engine, SyncmonMetadataKey.database, SyncmonMetadataKey.summary,
            SyncmonMetadataKey.previousSummary, SyncmonMetadataKey.phase, SyncmonMetadataKey.stallReason,
            SyncmonMetadataKey.errorCode, SyncmonMetadataKey.messageID,
        ].map { JournalFieldName(metadataKey: $0)?.rawValue }
        #expect(
            mapped == [
                "SYNCMON_ENGINE", "SYNCMON_DATABASE", "SYNCMON_SUMMARY", "SYNCMON_PREVIOUS_SUMMARY", "SYNCMON_PHASE",
                "SYNCMON_STALL_REASON", "SYNCMON_ERROR_CODE", "MESSAGE_ID",
            ]
        )
    }

    @Test("keys without letters or digits have no field", arguments: ["", ".", "-_-", "日本"])
    func unmappableKeys(key: String) {
        #expect(JournalFieldName(metadataKey: key) == nil)
    }

    @Test("a metadata key can never produce a field journald or systemd give a meaning")
    func reservedFieldsAreProtected() {
        for key in ["priority", "PRIORITY", "message", "unit", "syslog_identifier", "code_file"] {
            let name = JournalFieldName(metadataKey: key)
            #expect(name?.rawValue.hasPrefix("SYNCMON_") == true, "\(key) → \(String(describing: name))")
        }
    }

    @Test("long keys are cut to 64 bytes and stay valid")
    func longKeys() throws {
        let key = String(repeating: "segment.", count: 20)
        let name = try #require(JournalFieldName(metadataKey: key))
        #expect(name.rawValue.utf8.count == JournalFieldName.maximumLength)
        #expect(JournalFieldName.isValid(name.rawValue))
    }
}
