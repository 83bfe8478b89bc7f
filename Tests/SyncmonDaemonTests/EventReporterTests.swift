import Logging
import SyncmonDaemon
import SyncmonLock
import SyncmonSources
import SyncmonSystemd
import Testing

@testable import SyncmonCore

/// `EventReporter`: the log entries behind the journald fields of docs/operations.md#logs-and-journald, checked on the
/// metadata the reporter hands to swift-log (the journald mapping is SyncmonSystemd's).
@Suite("Event reporter")
struct EventReporterTests {
    let recorder = RecordingLogHandler.Storage()
    var logger: Logger {
        let storage = self.recorder
        var logger = Logger(label: "test") { _ in RecordingLogHandler(storage: storage) }
        logger.logLevel = .trace
        return logger
    }

    @Test("summary changes and stalls are logged with message IDs, levels and SYNCMON fields")
    func stateChanges() throws {
        let reporter = EventReporter(logger: self.logger)
        var monitor = makeMonitor([
            (0, line("notes", "engineStarted")),
            (1, line("notes", "accountStatus", ["status": "available"])),
        ])
        reporter.report(monitor.changes(at: at(1)))
        reporter.report(monitor.changes(at: at(61)))
        monitor.apply(try #require(decodeEvent(line("notes", "willFetchChanges"))), at: at(62))
        reporter.report(monitor.changes(at: at(62)))

        let entries = self.recorder.entries
        // A stall that changes the health is one entry with both meanings: the stall's
        // MESSAGE_ID and reason, the summary's fields.
        #expect(
            entries.map(\.message) == [
                "notes/private: sync not_started",
                "notes/private: sync stalled (not_syncing)",
                "notes/private: sync in_progress (was stalled)",
            ])
        #expect(entries.map(\.level) == [.info, .warning, .notice])
        #expect(
            entries.map { $0.metadata["message_id"] } == [
                MessageID.summaryChanged.rawValue, MessageID.stallRaised.rawValue, MessageID.stallCleared.rawValue,
            ])
        for entry in entries {
            #expect(entry.metadata["syncmon.engine"] == "notes")
            #expect(entry.metadata["syncmon.database"] == "private")
        }
        #expect(entries[0].metadata["syncmon.previous_summary"] == nil)
        #expect(entries[1].metadata["syncmon.stall_reason"] == "not_syncing")
        #expect(entries[1].metadata["syncmon.previous_summary"] == "not_started")
        #expect(entries[1].metadata["syncmon.summary"] == "stalled")
        #expect(entries[2].metadata["syncmon.stall_reason"] == "not_syncing")
        #expect(entries[2].metadata["syncmon.previous_summary"] == "stalled")
        #expect(entries[2].metadata["syncmon.summary"] == "in_progress")
    }

    /// Changes of one pair `a/shared`, built by hand: what the monitor hands the reporter.
    static func change(_ kind: StatusChange.Kind, _ summary: Summary, stalls: [StallReason] = [], health: Bool = true) -> StatusChange {
        var change = StatusChange(
            key: PairKey(engine: InlineName("a")!, database: .shared), kind: kind,
            evaluation: Evaluation(summary: summary, stalls: StallSet(stalls)), failedPhase: nil)
        change.isHealthChange = health
        return change
    }

    @Test(
        "one entry per batch of a pair's stall and health change; a stall alone keeps its own",
        arguments: [
            (
                [
                    change(.stallRaised(.noProgress), .stalled, stalls: [.noProgress]),
                    change(.summaryChanged(from: .inProgress), .stalled, stalls: [.noProgress]),
                ],
                ["a/shared: sync stalled (no_progress)"], [MessageID.stallRaised]
            ),
            (
                [change(.stallCleared(.noProgress), .succeeded), change(.summaryChanged(from: .stalled), .succeeded)],
                ["a/shared: sync succeeded (was stalled)"], [.stallCleared]
            ),
            (
                [change(.stallCleared(.noProgress), .engineDown), change(.summaryChanged(from: .stalled), .engineDown)],
                ["a/shared: sync engine_down (was stalled)"], [.summaryChanged]
            ),
            (
                [change(.stallRaised(.retryLoop), .stalled, stalls: [.noProgress, .retryLoop])],
                ["a/shared: stalled (retry_loop)"], [.stallRaised]
            ),
            (
                [change(.stallCleared(.retryLoop), .stalled, stalls: [.noProgress])],
                ["a/shared: stall cleared (retry_loop)"], [.stallCleared]
            ),
        ])
    func folding(changes: [StatusChange], messages: [String], ids: [MessageID]) {
        let reporter = EventReporter(logger: self.logger)
        reporter.report(changes)
        #expect(self.recorder.entries.map(\.message) == messages)
        #expect(self.recorder.entries.map { $0.metadata["message_id"] } == ids.map(\.rawValue))
    }

    @Test("a wrapped job's failure fits 80 columns on a terminal; the failure's words are a field")
    func fitsEightyColumns() throws {
        let reporter = EventReporter(logger: self.logger)
        var monitor = makeMonitor([
            (0, line("rsync", "containerEvent", ["database": "shared", "kind": "export", "id": "r1", "started": "2026-11-21T12:00:00Z"]))
        ])
        reporter.report(monitor.changes(at: at(0)))
        let words =
            "rsync: [sender] change_dir \"/nonexistent/photos\" failed: No such file or directory (2); rsync error: some files/attrs were not transferred"
        monitor.apply(
            try #require(
                decodeEvent(
                    line(
                        "rsync", "containerEvent",
                        [
                            "database": "shared", "kind": "export", "id": "r1", "started": "2026-11-21T12:00:00Z", "ended": "2026-11-21T12:00:01Z",
                            "succeeded": false, "error": ["code": "partialTransfer", "message": words],
                        ]))),
            at: at(1))
        reporter.report(monitor.changes(at: at(1)))
        let entry = try #require(self.recorder.entries.last)
        #expect(entry.message == "rsync/shared: sync error (export partialTransfer)")
        #expect(entry.metadata["syncmon.error_message"] == words)
        let terminal = TerminalLogFormatter.line(
            time: LogTime(microsecondsSinceEpoch: 1_795_000_000_000_000), level: entry.level, message: entry.message,
            metadata: entry.metadata.mapValues { .string($0) })
        #expect(terminal.count <= 80, "\(terminal)")
    }

    @Test("an error summary is logged at error with the failed phase and its code; recovery at notice")
    func errorSummary() throws {
        let reporter = EventReporter(logger: self.logger)
        var monitor = makeMonitor([(0, line("photos", "willSendChanges", ["database": "shared"]))])
        reporter.report(monitor.changes(at: at(0)))
        monitor.apply(
            try #require(
                decodeEvent(
                    line(
                        "photos", "sentRecordZoneChanges",
                        [
                            "database": "shared", "savedRecords": 0, "deletedRecords": 0, "failedRecordDeletes": [],
                            "failedRecordSaves": [["code": "quotaExceeded"]],
                        ]))),
            at: at(1)
        )
        monitor.apply(try #require(decodeEvent(line("photos", "didSendChanges", ["database": "shared"]))), at: at(2))
        reporter.report(monitor.changes(at: at(2)))
        monitor.apply(try #require(decodeEvent(line("photos", "willSendChanges", ["database": "shared"]))), at: at(3))
        monitor.apply(try #require(decodeEvent(line("photos", "didSendChanges", ["database": "shared"]))), at: at(4))
        reporter.report(monitor.changes(at: at(4)))

        let entries = self.recorder.entries
        #expect(
            entries.map(\.message) == [
                "photos/shared: sync in_progress",
                "photos/shared: sync error (export quotaExceeded)",
                "photos/shared: sync succeeded (was error)",
            ])
        #expect(entries.map(\.level) == [.info, .error, .notice])
        let error = entries[1]
        #expect(error.metadata["syncmon.summary"] == "error")
        #expect(error.metadata["syncmon.phase"] == "export")
        #expect(error.metadata["syncmon.error_code"] == "quotaExceeded")
        #expect(error.metadata["syncmon.database"] == "shared")
        #expect(entries[2].metadata["syncmon.phase"] == nil)
    }

    @Test("rejections are logged a few per window, and the rest summed into the next entry")
    func rejections() {
        let reporter = EventReporter(logger: self.logger, burst: 2, window: .seconds(10 as Int64))
        for second in 0..<5 {
            reporter.report(rejections: [Rejection(.malformed), Rejection(.invalidField, field: "engine")], transport: .push, now: at(Int64(second)))
        }
        reporter.report(rejections: [], transport: .push, now: at(6))
        reporter.report(rejections: [Rejection(.unknownType)], transport: .push, now: at(10))
        let entries = self.recorder.entries
        #expect(entries.count == 3)
        #expect(entries.map { $0.metadata["syncmon.rejected_count"] } == ["2", "2", "7"])
        #expect(entries.allSatisfy { $0.level == .warning && $0.metadata["message_id"] == MessageID.eventRejected.rawValue })
        #expect(entries[0].metadata["syncmon.reject_reason"] == "malformed")
        #expect(entries[0].metadata["syncmon.transport"] == "push")
        #expect(entries[2].message == "rejected 7 event line(s) on push: unknown_type")
    }
    @Test("the host network view: one entry when it goes offline, one when it comes back, one when it cannot be followed")
    func hostNetwork() {
        let reporter = EventReporter(logger: self.logger)
        reporter.report(hostNetwork: .view(HostNetworkView(isOnline: true, interfaces: ["eth0"])))
        reporter.report(hostNetwork: .view(HostNetworkView(isOnline: true, interfaces: ["wlan0"])))
        reporter.report(hostNetwork: .view(HostNetworkView(isOnline: false)))
        reporter.report(hostNetwork: .view(HostNetworkView(isOnline: false)))
        reporter.report(hostNetwork: .view(HostNetworkView(isOnline: true, interfaces: ["eth0", "wg0"])))
        reporter.report(hostNetwork: .unavailable("socket(AF_NETLINK, NETLINK_ROUTE): Address family not supported by protocol"))
        reporter.report(hostNetwork: .unavailable("again"))

        let entries = self.recorder.entries
        #expect(
            entries.map(\.message) == [
                "host network online (default route via eth0)",
                "host network online (default route via wlan0)",
                "host network offline: no default route through an interface that is up; engines that do not report their network are no_network",
                "host network offline",
                "host network online again (default route via eth0, wg0)",
                "cannot follow the host network (socket(AF_NETLINK, NETLINK_ROUTE): Address family not supported by protocol); engines that do not report their network stay unknown",
                "host network unavailable",
            ])
        #expect(entries.map(\.level) == [.info, .debug, .warning, .debug, .notice, .warning, .debug])
        #expect(entries.allSatisfy { $0.metadata["message_id"] == MessageID.hostNetworkChanged.rawValue })
        #expect(entries.map { $0.metadata["syncmon.host_network"] } == ["online", "online", "offline", "offline", "online", "unavailable", "unavailable"])
        #expect(entries[0].metadata["syncmon.interfaces"] == "eth0")
        #expect(entries[4].metadata["syncmon.interfaces"] == "eth0,wg0")
        #expect(entries[2].metadata["syncmon.interfaces"] == nil)
        #expect(entries[5].metadata["syncmon.reason"]?.hasPrefix("socket(AF_NETLINK") == true)
        #expect(entries.allSatisfy { $0.metadata["syncmon.engine"] == nil })
    }
}

/// Keeps every log entry in memory.
struct RecordingLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        /// Metadata values as strings.
        var metadata: [String: String]
    }

    final class Storage: Sendable {
        private let storage = Locked<[Entry]>([])
        var entries: [Entry] { self.storage.withLock { $0 } }
        func append(_ entry: Entry) { self.storage.withLock { $0.append(entry) } }
    }

    let storage: Storage
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = self.metadata.merging(event.metadata ?? [:]) { $1 }
        self.storage.append(Entry(level: event.level, message: event.message.description, metadata: merged.mapValues { "\($0)" }))
    }
}
