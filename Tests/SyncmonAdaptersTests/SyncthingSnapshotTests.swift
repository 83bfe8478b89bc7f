import SyncmonAdapters
import SyncmonCore
import Testing

/// Snapshots: which REST answers they ask for, restart detection by `startTime`, the catch-up of
/// the latest event id, and folder ids outside the name rule (docs/syncthing.md).
@Suite("Syncthing adapter: snapshots")
struct SyncthingSnapshotTests {
    @Test("a first snapshot asks for status, the latest event id, connections, config, then each folder")
    func firstSnapshotRequests() throws {
        var syncthing = FakeSyncthing()
        syncthing.folders.append(FakeSyncthing.Folder(id: "photos", devices: ["PEER1", "PEER2"]))
        syncthing.devices["PEER2"] = false
        let adapter = SyncthingAdapter(engine: InlineName("st")!)
        let (requests, _) = try syncthing.snapshot(for: adapter)
        #expect(
            requests == [
                .systemStatus, .latestEvent, .connections, .config,
                .folderStatus(folder: "shared"), .folderErrors(folder: "shared"), .completion(folder: "shared", device: "PEER1"),
                .folderStatus(folder: "photos"), .folderErrors(folder: "photos"),
                .completion(folder: "photos", device: "PEER1"), .completion(folder: "photos", device: "PEER2"),
            ])
    }

    @Test("paused folders and folders with bad ids are not queried")
    func skippedFolders() throws {
        var syncthing = FakeSyncthing()
        syncthing.folders = [FakeSyncthing.Folder(id: "on holiday"), FakeSyncthing.Folder(id: "paused", paused: true), FakeSyncthing.Folder(id: "ok")]
        let (requests, _) = try syncthing.snapshot(for: SyncthingAdapter(engine: InlineName("st")!))
        let folderRequests = requests.filter {
            if case .folderStatus = $0 { return true }
            if case .folderErrors = $0 { return true }
            if case .completion = $0 { return true }
            return false
        }
        #expect(folderRequests == [.folderStatus(folder: "ok"), .folderErrors(folder: "ok"), .completion(folder: "ok", device: "PEER1")])
    }

    struct RestartCase: Sendable, CustomStringConvertible {
        var name: String
        /// `startTime` at the second snapshot (the first is 09:00:00).
        var startTime: String
        /// Event ids went backwards between the snapshots.
        var idsWentBack: Bool
        var asksLatestEvent: Bool
        var restarted: Bool
        var description: String { self.name }
    }

    static let restartCases: [RestartCase] = [
        RestartCase(name: "same start: since is kept", startTime: "2026-11-24T09:00:00Z", idsWentBack: false, asksLatestEvent: false, restarted: false),
        RestartCase(
            name: "new start: a restart, since from the latest event", startTime: "2026-11-24T09:30:00Z", idsWentBack: false, asksLatestEvent: true,
            restarted: true),
        RestartCase(
            name: "ids went back, same start: since read again, no restart", startTime: "2026-11-24T09:00:00Z", idsWentBack: true, asksLatestEvent: true,
            restarted: false),
    ]

    @Test("restart detection by startTime", arguments: Self.restartCases)
    func restartDetection(_ testCase: RestartCase) throws {
        var syncthing = FakeSyncthing()
        syncthing.latestEventID = 42
        var (adapter, _) = try started(syncthing)
        #expect(adapter.since == 42)
        _ = try adapter.ingest(events: body(events(from: 43, at: 1, [stateChanged("idle", "scanning"), stateChanged("scanning", "idle")])), at: t(1))
        if testCase.idsWentBack {
            _ = try adapter.ingest(events: body(events(from: 3, at: 2, [stateChanged("idle", "scanning")])), at: t(2))
        } else {
            adapter.pollFailed()
        }
        #expect(adapter.needsSnapshot)
        syncthing.startTime = testCase.startTime
        syncthing.latestEventID = 7
        let (requests, snapshot) = try syncthing.snapshot(for: adapter)
        #expect(requests.contains(.latestEvent) == testCase.asksLatestEvent)
        let output = adapter.ingest(snapshot: snapshot, at: t(3))
        // The first snapshot left 42, two events made it 44; the latest event is now 7.
        #expect(adapter.since == (testCase.asksLatestEvent ? 7 : 44))
        #expect(output.notices.contains(.restarted(startTime: testCase.startTime)) == testCase.restarted)
        #expect(!adapter.needsSnapshot)
        // A restart says setup again (Syncthing set the folder up anew); a re-read does not.
        let setups = output.events.filter {
            if case .containerEvent = $0.payload { return true }; return false
        }
        #expect(setups.count == (testCase.restarted ? 2 : 0))
        #expect(output.events.contains { $0.payload == .engineStarted(heartbeatInterval: adapter.heartbeatInterval) })
    }

    struct NameCase: Sendable, CustomStringConvertible {
        var id: String
        var reason: String?
        var description: String { "\"\(self.id)\"" }
    }

    static let nameCases: [NameCase] = [
        NameCase(id: "shared", reason: nil),
        NameCase(id: "a.b_c-D9", reason: nil),
        NameCase(id: "abcd-1234", reason: nil),
        NameCase(id: String(repeating: "x", count: 64), reason: nil),
        NameCase(id: String(repeating: "x", count: 65), reason: "longer than 64 bytes"),
        NameCase(id: "", reason: "an empty folder id"),
        NameCase(id: "my folder", reason: "characters outside [A-Za-z0-9._-]"),
        NameCase(id: "x/y", reason: "characters outside [A-Za-z0-9._-]"),
        NameCase(id: "fotos-ü", reason: "characters outside [A-Za-z0-9._-]"),
    ]

    @Test("folder ids are reported as they are, or rejected with a reason", arguments: Self.nameCases)
    func folderNames(_ testCase: NameCase) throws {
        #expect(SyncthingAdapter.rejectionReason(forFolder: testCase.id) == testCase.reason)
        #expect((SyncthingAdapter.database(forFolder: testCase.id) == nil) == (testCase.reason != nil))
        var syncthing = FakeSyncthing()
        syncthing.folders = [FakeSyncthing.Folder(id: testCase.id)]
        let (adapter, output) = try started(syncthing)
        if let reason = testCase.reason {
            #expect(output.notices == [.folderRejected(id: testCase.id, reason: reason)])
            #expect(output.events.isEmpty)
            #expect(adapter.reportedPairs.isEmpty)
        } else {
            #expect(output.notices.isEmpty)
            #expect(adapter.reportedPairs.map(\.database.description) == [testCase.id])
        }
    }

    @Test("a rejected folder is said once, again only after it left the configuration")
    func rejectedOnce() throws {
        var syncthing = FakeSyncthing()
        syncthing.folders = [FakeSyncthing.Folder(id: "shared"), FakeSyncthing.Folder(id: "bad id")]
        var (adapter, first) = try started(syncthing)
        #expect(first.notices == [.folderRejected(id: "bad id", reason: "characters outside [A-Za-z0-9._-]")])
        func resnapshot() throws -> SyncthingOutput {
            adapter.pollFailed()
            return adapter.ingest(snapshot: try syncthing.snapshot(for: adapter).snapshot, at: t(5))
        }
        #expect(try resnapshot().notices.isEmpty)
        syncthing.folders.removeLast()
        #expect(try resnapshot().notices.isEmpty)
        syncthing.folders.append(FakeSyncthing.Folder(id: "bad id"))
        #expect(try resnapshot().notices.count == 1)
        // Events about it are skipped too.
        let output = try adapter.ingest(events: body(events(from: 1, at: 6, [stateChanged("idle", "error", folder: "bad id", error: "gone")])), at: t(6))
        #expect(output.events.allSatisfy { $0.database == sharedFolder })
    }

    @Test("a folder removed from the configuration is stopped, then forgotten")
    func removedFolder() throws {
        var syncthing = FakeSyncthing()
        syncthing.folders.append(FakeSyncthing.Folder(id: "old"))
        var (adapter, _) = try started(syncthing)
        #expect(adapter.reportedPairs.count == 2)
        syncthing.folders.removeLast()
        adapter.pollFailed()
        let output = adapter.ingest(snapshot: try syncthing.snapshot(for: adapter).snapshot, at: t(5))
        #expect(output.events.filter { $0.database.description == "old" }.map(\.payload) == [.engineStopped])
        #expect(adapter.reportedPairs.map(\.database) == [sharedFolder])
    }

    @Test("an answer to a request not asked for, and an undecodable answer, are refused")
    func refusedAnswers() throws {
        var snapshot = SyncthingAdapter(engine: InlineName("st")!).makeSnapshot()
        #expect(throws: SyncthingAdapterError.unexpectedAnswer(.config)) { try snapshot.record(.config, body: Array("{}".utf8)) }
        #expect(throws: SyncthingAdapterError.self) { try snapshot.record(.systemStatus, body: Array("<html>".utf8)) }
        #expect(snapshot.nextRequest == .systemStatus)
    }

    @Test("an error message never quotes the body (config and ConfigSaved carry the API key)")
    func noBodyInErrors() throws {
        var snapshot = SyncthingAdapter(engine: InlineName("st")!).makeSnapshot()
        try snapshot.record(.systemStatus, body: FakeSyncthing().answer(.systemStatus))
        try snapshot.record(.latestEvent, body: Array("[]".utf8))
        try snapshot.record(.connections, body: FakeSyncthing().answer(.connections))
        let bodies = [
            #"{"folders": "secret-api-key", "gui": {"apiKey": "secret-api-key"}}"#,
            #"{"folders": [{"id": 7, "paused": "secret-api-key"}]}"#,
            #"secret-api-key"#,
        ]
        for text in bodies {
            do {
                try snapshot.record(.config, body: Array(text.utf8))
                Issue.record("decoded \(text)")
            } catch {
                #expect(!error.description.contains("secret"), "\(error)")
                #expect(error.description.contains("/rest/config"))
            }
        }
    }

    @Test("request paths")
    func paths() {
        #expect(SyncthingRequest.folderStatus(folder: "shared").path == "/rest/db/status?folder=shared")
        #expect(SyncthingRequest.completion(folder: "a.b", device: "ABC-123").path == "/rest/db/completion?folder=a.b&device=ABC-123")
        #expect(SyncthingRequest.folderErrors(folder: "x&y=z").path == "/rest/folder/errors?folder=x%26y%3Dz")
        #expect(SyncthingRequest.latestEvent.path == "/rest/events?since=0&limit=1&timeout=0&events=\(SyncthingAdapter.eventMask)")
        var adapter = SyncthingAdapter(engine: InlineName("st")!, pollTimeoutSeconds: 45)
        adapter.pollFailed()
        #expect(adapter.eventsPath == "/rest/events?since=0&timeout=45&events=\(SyncthingAdapter.eventMask)")
        #expect(
            SyncthingAdapter.eventMask == "StateChanged,FolderSummary,FolderCompletion,FolderErrors,FolderPaused,FolderResumed,"
                + "DeviceConnected,DeviceDisconnected,DevicePaused,DeviceResumed,ItemFinished,DownloadProgress,"
                + "RemoteDownloadProgress,LocalIndexUpdated,ConfigSaved")
    }
}
