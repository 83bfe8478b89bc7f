import Foundation
import SyncmonCore
import Testing

/// docs/protocol.md#error-classes: transient, conflict and actionable codes; bounded metric labels; failure digests.
@Suite("Error classes")
struct ErrorClassTests {
    static let transientCodes: Set<KnownErrorCode> = [
        .notAuthenticated, .accountTemporarilyUnavailable, .networkFailure, .networkUnavailable, .requestRateLimited,
        .serviceUnavailable, .zoneBusy,
        // syncmon wrap (docs/wrap.md): rclone 5, rsync 10, 12, 30, 35, 255, and the tools' own retries.
        .temporaryError, .socketIOError, .protocolStreamError, .dataTimeout, .connectionTimeout, .sshError,
        .attemptFailed, .backendRetry,
    ]

    @Test("each known code has its documented class", arguments: KnownErrorCode.allCases)
    func knownClass(_ code: KnownErrorCode) {
        let expected: ErrorClass = Self.transientCodes.contains(code) ? .transient : code == .serverRecordChanged ? .conflict : .actionable
        #expect(code.errorClass == expected)
        #expect(ErrorCode(code).errorClass == expected)
        // The wire spelling maps back to the known code.
        #expect(ErrorCode(name: name(code.description)).known == code)
        #expect(ErrorCode(name: name(code.description)).label.description == code.description)
    }

    @Test(
        "the actionable examples of docs/protocol.md#error-classes are actionable",
        arguments: [
            KnownErrorCode.quotaExceeded, .zoneNotFound, .limitExceeded, .partialFailure, .batchRequestFailed, .unknownItem, .permissionFailure,
        ])
    func actionableExamples(_ code: KnownErrorCode) {
        #expect(code.errorClass == .actionable)
    }

    @Test(
        "codes syncmon does not know are actionable and labelled other, keeping their spelling",
        arguments: [
            "myAppFailure", "QuotaExceeded", "quotaexceeded", "1", "exit-status-3",
        ])
    func unknownCodes(_ spelling: String) {
        let code = ErrorCode(name: name(spelling))
        #expect(code.known == nil)
        #expect(code.errorClass == .actionable)
        #expect(code.label == .other)
        #expect(code.label.description == "other")
        #expect(code.description == spelling)
        #expect(code.name == name(spelling))
        #expect(code == ErrorCode(name: name(spelling)))
    }

    @Test(
        "a code keeps its spelling however it is stored: known, short unknown, long unknown",
        arguments: ["serverRecordChanged", "x", "aVeryLongApplicationSpecificFailureCodeNameThatIsNotInline", String(repeating: "z", count: 64)])
    func spellingKept(_ spelling: String) throws {
        let code = ErrorCode(name: name(spelling))
        #expect(code.name == name(spelling))
        #expect(code.description == spelling)
        let encoded = try JSONEncoder().encode(code)
        #expect(try JSONDecoder().decode(ErrorCode.self, from: encoded) == code)
    }

    @Test("the label set is bounded: every known code plus other")
    func labels() {
        #expect(ErrorCodeLabel.all.count == KnownErrorCode.allCases.count + 1)
        #expect(ErrorCodeLabel.all.last == .other)
        #expect(Set(ErrorCodeLabel.all.map(\.description)).count == ErrorCodeLabel.all.count)
        #expect(ErrorCodeLabel.all.sorted() == ErrorCodeLabel.all)
    }

    @Test("the codes known before wrap's keep their numbers, so persisted counts keep their meaning")
    func stableNumbers() {
        #expect(KnownErrorCode.unknown.rawValue == 37)
        #expect(KnownErrorCode.participantAlreadyInvited.rawValue == 36)
        #expect(ErrorCodeLabel.legacyOtherIndex == KnownErrorCode.unknown.rawValue + 1)
    }

    @Test("labels persist by name; a legacy {index} reads back, its old `other` as other")
    func labelPersistence() throws {
        let labels = [ErrorCodeLabel(.quotaExceeded), ErrorCodeLabel(.directoryNotFound), ErrorCodeLabel(.unknown), .other]
        let encoded = try JSONEncoder().encode(labels)
        #expect(String(decoding: encoded, as: UTF8.self) == #"["quotaExceeded","directoryNotFound","unknown","other"]"#)
        #expect(try JSONDecoder().decode([ErrorCodeLabel].self, from: encoded) == labels)
        let legacy = Data(#"[{"index":24},{"index":37},{"index":38},{"index":200}]"#.utf8)
        #expect(try JSONDecoder().decode([ErrorCodeLabel].self, from: legacy) == [ErrorCodeLabel(.quotaExceeded), ErrorCodeLabel(.unknown), .other, .other])
    }

    @Test("class names are the metric label values")
    func classNames() {
        #expect(ErrorClass.allCases.map(\.description) == ["transient", "conflict", "actionable"])
    }

    @Test("a code longer than 64 bytes keeps its first 64 and counts as other")
    func longCode() {
        let long = String(repeating: "q", count: 100)
        let line = #"{"v":1,"engine":"notes","type":"error","error":{"code":"\#(long)"}}"#
        guard case .error(_, let error)? = decode(line).event?.payload else {
            Issue.record("expected an error event, got \(decode(line).summary)")
            return
        }
        #expect(error.code.description == String(repeating: "q", count: 64))
        #expect(error.code.label == .other)
    }

    @Test("a failure digest keeps the count, the first actionable and transient errors, the last retryAfter, and codes")
    func digest() {
        var digest = FailureDigest()
        digest.add(err(.serverRecordChanged))
        digest.add(err(.zoneBusy, retryAfter: 5))
        digest.add(err(.quotaExceeded))
        digest.add(err(.networkFailure))
        digest.add(err(.zoneNotFound))
        digest.add(err(.serverRecordChanged, retryAfter: 9))
        #expect(digest.count == 6)
        #expect(digest.firstActionable == err(.quotaExceeded))
        #expect(digest.firstTransient == err(.zoneBusy, retryAfter: 5))
        #expect(digest.retryAfter == span(9))
        let counts = Dictionary(uniqueKeysWithValues: digest.codes.entries.map { ($0.0.description, $0.1) })
        #expect(counts == ["serverRecordChanged": 2, "zoneBusy": 1, "quotaExceeded": 1, "networkFailure": 1, "zoneNotFound": 1])
    }

    @Test("merging digests keeps list order: the later retryAfter wins, the earlier first errors stay")
    func merge() {
        var saves = failures(err(.zoneBusy, retryAfter: 30))
        let deletes = failures(err(.networkFailure, retryAfter: 3), err(.quotaExceeded))
        saves.merge(deletes)
        #expect(saves.count == 3)
        #expect(saves.firstTransient == err(.zoneBusy, retryAfter: 30))
        #expect(saves.firstActionable == err(.quotaExceeded))
        #expect(saves.retryAfter == span(3))
    }

    @Test("a code tally spills past four distinct codes without losing counts")
    func tallySpill() {
        var tally = ErrorCodeTally()
        let codes: [KnownErrorCode] = [.zoneBusy, .quotaExceeded, .networkFailure, .zoneNotFound, .unknownItem, .zoneBusy, .limitExceeded]
        for code in codes { tally.add(ErrorCodeLabel(code)) }
        tally.add(.other, count: 4)
        var total: [String: UInt32] = [:]
        tally.forEach { label, count in total[label.description, default: 0] += count }
        #expect(total == ["zoneBusy": 2, "quotaExceeded": 1, "networkFailure": 1, "zoneNotFound": 1, "unknownItem": 1, "limitExceeded": 1, "other": 4])
        #expect(tally.entries.map(\.1).reduce(0, +) == 11)
    }

    @Test(
        "every known code is spelled as its case is named, across the whole table",
        arguments: [
            (KnownErrorCode.internalError, "internalError"), (.badContainer, "badContainer"), (.quotaExceeded, "quotaExceeded"),
            (.participantAlreadyInvited, "participantAlreadyInvited"), (.unknown, "unknown"), (.usageError, "usageError"),
            (.incompleteSnapshot, "incompleteSnapshot"), (.receivedSIGUSR1, "receivedSIGUSR1"), (.partialTransfer, "partialTransfer"),
            (.sshError, "sshError"), (.backendRetry, "backendRetry"),
        ]
    )
    func spelling(code: KnownErrorCode, name: String) {
        #expect(code.description == name)
        #expect(Set(KnownErrorCode.allCases.map(\.description)).count == KnownErrorCode.allCases.count)
    }
}
