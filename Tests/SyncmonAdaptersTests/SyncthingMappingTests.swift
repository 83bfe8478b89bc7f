import SyncmonAdapters
import SyncmonCore
import Testing

/// One mapping case: a Syncthing found by the first snapshot, then batches of events; what the
/// adapter must say about one phase, and the verdict the core then gives.
struct MappingCase: Sendable, CustomStringConvertible {
    var name: String
    var syncthing: @Sendable () -> FakeSyncthing
    /// Batches of (type, data), one second apart from t(1).
    var batches: @Sendable () -> [[(String, Any)]]
    var expected: [EventPayload]
    var summary: Summary
    var description: String { self.name }

    init(
        _ name: String, start syncthing: @escaping @Sendable () -> FakeSyncthing = { FakeSyncthing() },
        then batches: @escaping @Sendable () -> [[(String, Any)]] = { [] }, expect expected: [EventPayload], summary: Summary
    ) {
        self.name = name
        self.syncthing = syncthing
        self.batches = batches
        self.expected = expected
        self.summary = summary
    }

    /// Runs the case; the payloads `keep` selects, from the snapshot on, and the final verdict.
    func run(_ keep: (EventPayload) -> Bool) throws -> (payloads: [EventPayload], summary: Summary?, notices: [SyncthingNotice]) {
        var syncthing = self.syncthing()
        syncthing.latestEventID = 0
        var (adapter, output) = try started(syncthing)
        var fed = Fed()
        fed.feed(output)
        var all = payloads(output, keep)
        var notices = output.notices
        let batches = self.batches()
        for (index, batch) in batches.enumerated() {
            let time = Double(index + 1)
            let answered = try adapter.ingest(events: body(events(from: adapter.since + 1, at: time, batch)), at: t(time))
            fed.feed(answered)
            all += payloads(answered, keep)
            notices += answered.notices
        }
        return (all, fed.summary(at: Double(batches.count + 1)), notices)
    }
}

func folder(_ change: @escaping @Sendable (inout FakeSyncthing.Folder) -> Void, _ syncthing: @escaping @Sendable (inout FakeSyncthing) -> Void = { _ in })
    -> @Sendable () -> FakeSyncthing
{
    {
        var fake = FakeSyncthing()
        change(&fake.folders[0])
        syncthing(&fake)
        return fake
    }
}

func twoPeers(_ change: @escaping @Sendable (inout FakeSyncthing.Folder) -> Void, paused: Bool = false) -> @Sendable () -> FakeSyncthing {
    folder(
        { folder in
            folder.devices = ["PEER1", "PEER2"]
            change(&folder)
        },
        { fake in
            fake.devices["PEER2"] = paused
            fake.connected.insert("PEER2")
        })
}

/// A scan that commits a local change.
var scan: [(String, Any)] {
    [stateChanged("idle", "scanning"), ("LocalIndexUpdated", ["folder": "shared", "items": 1, "filenames": ["new.txt"]]), stateChanged("scanning", "idle")]
}

/// Export: our changes reaching the connected peers, pending = the most a peer still needs.
@Suite("Syncthing adapter: export and pending")
struct SyncthingExportTests {
    static let behind3 = folder { $0.completion["PEER1"] = (99, 3) }

    static let cases: [MappingCase] = [
        MappingCase(
            "peers complete at the start: an export that succeeded then",
            expect: [pending(0), .willSendChanges, .didSendChanges], summary: .succeeded),
        MappingCase(
            "a peer behind at the start: in progress", start: behind3,
            expect: [pending(3), .willSendChanges], summary: .inProgress),
        MappingCase(
            "need shrinking is progress; complete ends it", start: behind3,
            then: { [[folderCompletion("PEER1", 99.5, need: 1)], [folderCompletion("PEER1", 100, need: 0)]] },
            expect: [pending(3), .willSendChanges, pending(1), sent(2), pending(0), sent(1), .didSendChanges], summary: .succeeded),
        MappingCase(
            "bytes shrinking alone is progress (a big file on its way)", start: folder { $0.completion["PEER1"] = (50, 1) },
            then: { [[folderCompletion("PEER1", 75, need: 1, bytes: 50)], [folderCompletion("PEER1", 75, need: 1, bytes: 50)]] },
            expect: [pending(1), .willSendChanges, sent(0)], summary: .inProgress),
        MappingCase(
            "a local change opens it; only a completion reported after the change closes it",
            then: { [scan, [device("DeviceDisconnected", "PEER1"), device("DeviceConnected", "PEER1")], [folderCompletion("PEER1", 100, need: 0)]] },
            expect: [pending(0), .willSendChanges, .didSendChanges, .willSendChanges, .didSendChanges], summary: .succeeded),
        MappingCase(
            "a local change with nobody connected: the next complete peer is the export's success",
            start: folder({ _ in }, { $0.connected = [] }),
            then: { [scan, [device("DeviceConnected", "PEER1"), folderCompletion("PEER1", 100, need: 0)]] },
            expect: [pending(0), .willSendChanges, .didSendChanges], summary: .succeeded),
        MappingCase(
            "two peers: pending is the most either still needs", start: twoPeers { $0.completion = ["PEER1": (90, 2), "PEER2": (80, 5)] },
            expect: [pending(5), .willSendChanges], summary: .inProgress),
        MappingCase(
            "the lagging peer disconnects, the other is complete: done",
            start: twoPeers { $0.completion = ["PEER1": (90, 2), "PEER2": (100, 0)] },
            then: { [[device("DeviceDisconnected", "PEER1")]] },
            expect: [pending(2), .willSendChanges, pending(0), .didSendChanges], summary: .succeeded),
        MappingCase(
            "the only peer disconnects: the export stays open until it is back and complete", start: folder { $0.completion["PEER1"] = (90, 2) },
            then: { [[device("DeviceDisconnected", "PEER1")], [device("DeviceConnected", "PEER1")], [folderCompletion("PEER1", 100, need: 0)]] },
            expect: [pending(2), .willSendChanges, pending(0), pending(2), pending(0), sent(2), .didSendChanges], summary: .succeeded),
        MappingCase(
            "a paused peer does not count", start: twoPeers({ $0.completion = ["PEER1": (100, 0), "PEER2": (50, 4)] }, paused: true),
            expect: [pending(0), .willSendChanges, .didSendChanges], summary: .succeeded),
        MappingCase(
            "a peer downloading from us is progress; an empty report is not", start: folder { $0.completion["PEER1"] = (50, 1) },
            then: {
                [
                    [("RemoteDownloadProgress", ["device": "PEER1", "folder": "shared", "state": ["big.bin": 43]])],
                    [("RemoteDownloadProgress", ["device": "PEER1", "folder": "shared", "state": [String: Int]()])],
                ]
            },
            expect: [pending(1), .willSendChanges, sent(0)], summary: .inProgress),
        MappingCase(
            "completion forced to 95 for deletes only is behind", start: folder { $0.completion["PEER1"] = (95, 1) },
            expect: [pending(1), .willSendChanges], summary: .inProgress),
    ]

    @Test("completion drives export", arguments: Self.cases)
    func export(_ testCase: MappingCase) throws {
        let (payloads, summary, _) = try testCase.run(isExport)
        #expect(payloads == testCase.expected)
        #expect(summary == testCase.summary)
    }
}

/// Import: a pull is a cycle; in sync is a success; failed items fail it, classed.
@Suite("Syncthing adapter: import")
struct SyncthingImportTests {
    static var pull: [(String, Any)] {
        [
            stateChanged("idle", "sync-waiting"), stateChanged("sync-waiting", "sync-preparing"), itemFinished("a.txt"),
            stateChanged("sync-preparing", "syncing"), itemFinished("gone.txt", action: "delete"),
            ("DownloadProgress", ["shared": ["big.bin": ["bytesDone": 10, "bytesTotal": 100]]]),
            stateChanged("syncing", "sync-preparing"), stateChanged("sync-preparing", "idle"),
        ]
    }

    static func failedPull(_ items: [(String, String)]) -> [(String, Any)] {
        [
            stateChanged("idle", "sync-preparing"), itemFinished("x", error: "open x: permission denied"),
            folderErrors(items), stateChanged("sync-preparing", "idle"), folderSummary(state: "idle", need: 1, errors: Int64(items.count)),
        ]
    }

    static let inSync: [EventPayload] = [.willFetchChanges, .didFetchChanges]
    static let peerGone = "syncing: peers who had this file went away, or the file has changed while syncing. will retry later\n"
    static let noSource = "syncing: no connected device has the required version of this file\n"
    static let fileExists = "syncing: file exists\n"

    static let cases: [MappingCase] = [
        MappingCase(
            "a pull is one cycle; items and downloads are its progress", then: { [pull] },
            expect: inSync + [
                .willFetchChanges, .fetchedRecordZoneChanges(modifications: 1, deletions: 0),
                .fetchedRecordZoneChanges(modifications: 0, deletions: 1), .fetchedRecordZoneChanges(modifications: 0, deletions: 0),
                .didFetchChanges,
            ], summary: .succeeded),
        MappingCase(
            "failed items fail it; the first actionable one shows", then: { [failedPull([("x", peerGone), ("y", "syncing: open y: permission denied\n")])] },
            expect: inSync + [
                .willFetchChanges, importError("pullFailed"), .error(phase: .import, error: SyncError(code: ErrorCode(.networkFailure))),
                .didFetchChanges,
            ], summary: .error),
        MappingCase(
            "only transient failures: retrying", then: { [failedPull([("x", noSource)])] },
            expect: inSync + [.willFetchChanges, .error(phase: .import, error: SyncError(code: ErrorCode(.networkUnavailable))), .didFetchChanges],
            summary: .retrying),
        MappingCase(
            "a retry that fails again stays error; a summary with needs says nothing",
            then: { [failedPull([("y", fileExists)]), failedPull([("y", fileExists)]), [folderSummary(state: "idle", need: 1, errors: 1)]] },
            expect: inSync + [.willFetchChanges, importError("pullFailed"), .didFetchChanges, .willFetchChanges, importError("pullFailed"), .didFetchChanges],
            summary: .error),
        MappingCase(
            "in sync after a failure, with no pull: succeeded",
            then: { [failedPull([("y", fileExists)]), [folderSummary(state: "idle", need: 0, errors: 0)]] },
            expect: inSync + [.willFetchChanges, importError("pullFailed"), .didFetchChanges] + inSync, summary: .succeeded),
        MappingCase(
            "the folder stops on an error mid-pull: the cycle fails with folderError",
            then: { [[stateChanged("idle", "sync-preparing"), stateChanged("sync-preparing", "error", error: "folder path missing")]] },
            expect: inSync + [.willFetchChanges, importError("folderError"), .didFetchChanges], summary: .error),
        MappingCase(
            "found pulling at the start: an open import",
            start: folder {
                $0.state = "syncing"; $0.need = 4
            },
            expect: [.willFetchChanges], summary: .inProgress),
        MappingCase(
            "found idle with failed items at the start: a failed import",
            start: folder {
                $0.need = 1; $0.failed = [("y", fileExists)]
            },
            expect: [.willFetchChanges, importError("pullFailed"), .didFetchChanges], summary: .error),
        // (The verdict is the export's: the peer has everything.)
        MappingCase(
            "found scanning: nothing until Syncthing says more", start: folder { $0.state = "scanning" },
            expect: [], summary: .succeeded),
        MappingCase(
            "found scanning, then idle with nothing needed: succeeded then", start: folder { $0.state = "scanning" },
            then: { [[stateChanged("scanning", "idle")]] }, expect: inSync, summary: .succeeded),
        MappingCase(
            "idle with needs at the start, then a summary in sync", start: folder { $0.need = 2 },
            then: { [[folderSummary(state: "idle", need: 0)]] }, expect: inSync, summary: .succeeded),
        MappingCase(
            "a send-only folder never pulls: its needs do not keep it from being in sync",
            start: folder {
                $0.type = "sendonly"; $0.need = 3
            },
            expect: inSync, summary: .succeeded),
    ]

    @Test("pulls drive import", arguments: Self.cases)
    func imports(_ testCase: MappingCase) throws {
        let (payloads, summary, _) = try testCase.run(isImport)
        #expect(payloads == testCase.expected)
        #expect(summary == testCase.summary)
    }

    @Test("a failed pull is logged with the first error's text, once while it repeats")
    func pullFailedNotice() throws {
        let testCase = MappingCase(
            "",
            then: {
                [
                    Self.failedPull([("y", Self.fileExists)]), Self.failedPull([("y", Self.fileExists)]),
                    Self.failedPull([("z", "syncing: no space left on device\n")]),
                ]
            }, expect: [], summary: .error)
        let (_, _, notices) = try testCase.run { _ in false }
        #expect(
            notices == [
                .pullFailed(folder: sharedFolder, count: 1, path: "y", message: "file exists"),
                .pullFailed(folder: sharedFolder, count: 1, path: "z", message: "no space left on device"),
            ])
    }
}

/// Setup follows the folder state; stopped follows pauses; network follows connections.
@Suite("Syncthing adapter: setup, stopped, network")
struct SyncthingLifecycleTests {
    /// Setup outcomes and lifecycle events, as short words.
    static func words(_ payload: EventPayload) -> String? {
        switch payload {
        case .containerEvent(let event) where event.ended != nil: event.succeeded == true ? "setup ok" : "setup \(event.error?.code.description ?? "?")"
        case .engineStarted: "started"
        case .engineStopped: "stopped"
        case .networkStatus(let available): available ? "network up" : "network down"
        default: nil
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var start: @Sendable () -> FakeSyncthing
        var batches: @Sendable () -> [[(String, Any)]]
        var words: [String]
        var summary: Summary
        var description: String { self.name }

        init(
            _ name: String, start: @escaping @Sendable () -> FakeSyncthing = { FakeSyncthing() },
            then batches: @escaping @Sendable () -> [[(String, Any)]] = { [] }, words: [String], summary: Summary
        ) {
            self.name = name
            self.start = start
            self.batches = batches
            self.words = words
            self.summary = summary
        }
    }

    static let running = ["setup ok", "started", "network up"]
    static let broken = folder {
        $0.state = "error"; $0.error = "folder marker missing"
    }
    static let pausedConfig: @Sendable () -> [[(String, Any)]] = {
        [
            [
                (
                    "ConfigSaved",
                    [
                        "folders": [["id": "shared", "paused": true, "devices": [["deviceID": "LOCAL"], ["deviceID": "PEER1"]]]],
                        "devices": [["deviceID": "PEER1", "paused": false]],
                    ]
                )
            ]
        ]
    }

    static let cases: [Case] = [
        Case("running: setup succeeded, then started", words: running, summary: .succeeded),
        Case(
            "folder error at the start: setup failed with folderError", start: broken,
            words: ["setup folderError", "started", "network up"], summary: .error),
        Case(
            "the error clears: setup succeeds again", start: broken, then: { [[stateChanged("error", "idle")]] },
            words: ["setup folderError", "started", "network up", "setup ok"], summary: .succeeded),
        Case("paused folder: stopped", start: folder { $0.paused = true }, words: ["stopped"], summary: .stopped),
        Case(
            "every device paused: stopped",
            start: folder(
                { _ in },
                {
                    $0.devices["PEER1"] = true; $0.connected = []
                }),
            words: ["stopped"], summary: .stopped),
        Case("shared with nobody: stopped", start: folder { $0.devices = [] }, words: ["stopped"], summary: .stopped),
        Case("one of two devices paused: running", start: twoPeers({ _ in }, paused: true), words: running, summary: .succeeded),
        Case(
            "device paused, then resumed but not yet connected",
            then: { [[device("DevicePaused", "PEER1"), device("DeviceDisconnected", "PEER1")], [device("DeviceResumed", "PEER1")]] },
            words: running + ["stopped", "started", "network down"], summary: .noNetwork),
        Case(
            "device resumed and connected",
            then: {
                [
                    [device("DevicePaused", "PEER1"), device("DeviceDisconnected", "PEER1")],
                    [device("DeviceResumed", "PEER1"), device("DeviceConnected", "PEER1")],
                ]
            },
            words: running + ["stopped", "started", "network up"], summary: .succeeded),
        Case("folder paused", then: { [[("FolderPaused", ["id": "shared", "label": "shared"])]] }, words: running + ["stopped"], summary: .stopped),
        Case(
            "the only peer disconnects: no network", then: { [[device("DeviceDisconnected", "PEER1")]] },
            words: running + ["network down"], summary: .noNetwork),
        Case(
            "a peer that connects and is dropped in one answer: no flap",
            then: { [[device("DeviceDisconnected", "PEER1")], [device("DeviceConnected", "PEER1"), device("DeviceDisconnected", "PEER1")]] },
            words: running + ["network down"], summary: .noNetwork),
        Case("a configuration saved with the folder paused", then: pausedConfig, words: running + ["stopped"], summary: .stopped),
    ]

    @Test("lifecycle", arguments: Self.cases)
    func lifecycle(_ testCase: Case) throws {
        let mapping = MappingCase(testCase.name, start: testCase.start, then: testCase.batches, expect: [], summary: testCase.summary)
        let (payloads, summary, _) = try mapping.run { Self.words($0) != nil }
        #expect(payloads.compactMap(Self.words) == testCase.words)
        #expect(summary == testCase.summary)
    }

    @Test("a resumed folder, a cleared folder error and a changed folder list are read again")
    func rereads() throws {
        func reread(_ batch: [(String, Any)], _ syncthing: FakeSyncthing = FakeSyncthing()) throws -> (Bool, [SyncthingNotice]) {
            var (adapter, _) = try started(syncthing)
            let output = try adapter.ingest(events: body(events(from: 1, at: 1, batch)), at: t(1))
            return (adapter.needsSnapshot, output.notices)
        }
        #expect(try reread([("FolderPaused", ["id": "shared"]), ("FolderResumed", ["id": "shared"])]).0)
        #expect(try reread([stateChanged("error", "idle")], Self.broken()).0)
        let added: [(String, Any)] = [
            (
                "ConfigSaved",
                [
                    "folders": [["id": "shared", "devices": [["deviceID": "PEER1"]]], ["id": "new", "devices": [["deviceID": "PEER1"]]]],
                    "devices": [["deviceID": "PEER1"]],
                ]
            )
        ]
        #expect(try reread(added) == (true, [.configurationChanged]))
        let same: [(String, Any)] = [
            (
                "ConfigSaved",
                [
                    "folders": [["id": "shared", "type": "sendreceive", "devices": [["deviceID": "LOCAL"], ["deviceID": "PEER1"]]]],
                    "devices": [["deviceID": "PEER1"]],
                ]
            )
        ]
        #expect(try reread(same) == (false, []))
        #expect(try !reread([stateChanged("idle", "scanning"), stateChanged("scanning", "idle")]).0)
    }

    @Test("Syncthing's first run: a folder shared with no device is stopped, and the log says why, once")
    func sharedWithNobody() throws {
        let syncthing = folder { $0.devices = [] }()
        var (adapter, output) = try started(syncthing)
        #expect(output.notices == [.folderNotShared(folder: sharedFolder)])
        #expect("\(output.notices[0])".contains("shared with no other device"))
        var fed = Fed()
        fed.feed(output)
        #expect(fed.summary(at: 1) == .stopped)
        // Stopped is not down: the table does not say "(down)" for it.
        #expect(!StatusTable.render(rows: fed.monitor.rows(at: t(1)), now: t(1)).contains("(down)"))
        // Scans and summaries of the running folder change nothing, and say nothing again.
        let later = try adapter.ingest(
            events: body(events(from: 1, at: 2, [stateChanged("idle", "scanning"), stateChanged("scanning", "idle"), folderSummary(state: "idle", need: 0)])),
            at: t(2))
        #expect(later.notices.isEmpty)
        #expect(later.events.allSatisfy { $0.payload.type == .engineStopped || $0.payload.type == .heartbeat })
        // A paused folder is stopped without that notice.
        #expect(
            try started(
                folder {
                    $0.devices = []; $0.paused = true
                }()
            ).1.notices.isEmpty)
    }

    @Test("with no peer connected, a missing folder marker is still a failed setup, with Syncthing's text")
    func markerMissingWithoutPeers() throws {
        let marker = "folder marker missing (this indicates potential data loss, search docs/forum to get information about how to proceed)"
        let syncthing = folder(
            {
                $0.state = "error"; $0.error = marker
            }, { $0.connected = [] })()
        let (_, output) = try started(syncthing)
        #expect(output.notices == [.folderFailed(folder: sharedFolder, message: marker)])
        var fed = Fed()
        fed.feed(output)
        let key = PairKey(engine: InlineName("st")!, database: sharedFolder)
        let row = try #require(fed.monitor.rows(at: t(1)).first { $0.key == key })
        // The summary is no_network (it comes first), and the failure is there for the table's
        // detail and the Nagios line to name: setup failed, actionable, folderError.
        #expect(row.summary == .noNetwork)
        #expect(row.network == .unavailable)
        #expect(row.failing(.setup)?.error.code.description == "folderError")
        #expect(row.outstandingFailure?.phase == .setup)
    }

    @Test("a folder error is logged with Syncthing's text")
    func folderErrorNotice() throws {
        let (_, output) = try started(
            folder {
                $0.state = "error"; $0.error = "folder path missing"
            }())
        #expect(output.notices == [.folderFailed(folder: sharedFolder, message: "folder path missing")])
    }
}

/// The error of an item a pull could not complete, classed (docs/syncthing.md, "Pull errors").
@Suite("Syncthing adapter: pull error classes")
struct SyncthingPullErrorTests {
    static let cases: [(String, String, ErrorClass)] = [
        ("syncing: peers who had this file went away, or the file has changed while syncing. will retry later\n", "networkFailure", .transient),
        ("no connected device has the required version of this file", "networkUnavailable", .transient),
        // A canary's file rewritten at the peer while pulled (Syncthing 1.19, recorded by the detection matrix).
        ("pull: no such file", "networkFailure", .transient),
        ("syncing: open /x/sub/a: no such file or directory\n", "pullFailed", .actionable),
        ("syncing: opening temp file: open /x/.syncthing.a.tmp: operation not permitted\n", "pullFailed", .actionable),
        ("syncing: opening temp file: open /x/.syncthing.a.tmp: file exists\n", "pullFailed", .actionable),
        ("open /x/a: permission denied", "pullFailed", .actionable),
        ("write /x/a: no space left on device", "pullFailed", .actionable),
        ("file modified but not rescanned; will try again later", "pullFailed", .actionable),
        ("directory contains ignored files (see ignore documentation for (?d) prefix)", "pullFailed", .actionable),
        ("", "pullFailed", .actionable),
    ]

    @Test("classes", arguments: Self.cases)
    func classify(_ message: String, _ code: String, _ errorClass: ErrorClass) {
        let error = SyncthingPullError.classify(message)
        #expect(error.code.description == code)
        #expect(error.errorClass == errorClass)
        #expect(error.retryAfter == nil)
    }
}
