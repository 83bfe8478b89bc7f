import SyncmonCore

/// The mapping rules of one folder (docs/syncthing.md, "How folders map"): each compares
/// Syncthing's word with what the core was last told and emits only the difference.
extension SyncthingFolder {
    /// Pull states: a pull runs from the first of them until the folder leaves both.
    /// (`sync-waiting` is the queue for the I/O token, before the pull starts.)
    static let pullStates: Set<String> = ["sync-preparing", "syncing"]

    var isPulling: Bool { self.state.map(Self.pullStates.contains) ?? false }

    /// Devices the folder can exchange data with now.
    func countedPeers(_ peers: SyncthingPeers) -> [String] {
        self.devices.filter(peers.isCounted)
    }

    /// Reported as running: not paused, and shared with at least one device that is not paused.
    /// (A folder shared with nobody syncs nothing, like one whose every device is paused.)
    func shouldRun(_ peers: SyncthingPeers) -> Bool {
        !self.paused && self.devices.contains { !peers.paused.contains($0) }
    }

    // MARK: Lifecycle, setup, network, export

    /// Brings the pair's lifecycle, setup, network, pending and export up to date. Import cycles
    /// follow the events instead (`startPull`, `endPull`, `observeImport`). Within a batch of
    /// events the network waits for the batch's end (`network: false`): a device the other side
    /// has paused connects and is dropped in the same millisecond, every reconnection interval.
    mutating func reconcile(_ peers: SyncthingPeers, _ emitter: inout SyncthingEmitter, at time: Timestamp, network: Bool = true) {
        guard self.shouldRun(peers) else {
            if self.reported != .stopped {
                emitter.emit(.engineStopped, for: &self, at: time)
                self.reported = .stopped
                // Syncthing's first run shares its Default Folder with nobody: say why the folder
                // is stopped, as nothing in Syncthing is.
                if !self.paused, self.devices.isEmpty { emitter.notice(.folderNotShared(folder: self.database)) }
                // Said again on resume: the core keeps them, but a resumed pair starts a new story.
                self.network = nil
                self.pending = nil
                self.startDue = true
            }
            return
        }
        if self.reported != .running {
            self.reported = .running
            self.startDue = true
        }
        // Setup before `engineStarted`: on a new pair, `engineStarted` with no setup seen yet
        // would open a CKSyncEngine-style setup (docs/protocol.md, "Setup").
        self.reconcileSetup(emitter: &emitter, at: time)
        if self.startDue {
            emitter.emit(.engineStarted(heartbeatInterval: emitter.heartbeatInterval), for: &self, at: time)
            self.startDue = false
        }
        if network { self.reconcileNetwork(peers, &emitter, at: time) }
        self.reconcileExport(peers, &emitter, at: time)
    }

    /// Setup follows the folder state: running is a setup that succeeded; `error` (path or
    /// marker missing, no space, …) is a setup that failed with code `folderError`.
    private mutating func reconcileSetup(emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard let state = self.state else { return }
        if state == "error" {
            guard self.setupSucceeded != false else { return }
            emitter.emitSetup(error: self.folderError, for: &self, at: time)
            self.setupSucceeded = false
            emitter.notice(.folderFailed(folder: self.database, message: SyncthingPullError.trimmed(self.stateError ?? "folder error")))
        } else if self.setupSucceeded != true {
            let recovered = self.setupSucceeded == false
            emitter.emitSetup(error: nil, for: &self, at: time)
            self.setupSucceeded = true
            if recovered { emitter.notice(.folderRecovered(folder: self.database)) }
            // A setup that succeeds restarts `not_syncing`'s clock: say at once where the import
            // stands, as far as Syncthing's word allows.
            self.observeImport(force: true, &emitter, at: time)
        }
    }

    /// `available` while at least one device sharing the folder is connected and not paused.
    mutating func reconcileNetwork(_ peers: SyncthingPeers, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning else { return }
        let available = !self.countedPeers(peers).isEmpty
        guard self.network != available else { return }
        emitter.emit(.networkStatus(available: available), for: &self, at: time)
        self.network = available
    }

    /// Export is our changes reaching the peers: in progress while a connected, unpaused peer
    /// lacks something (completion below 100 %, or items needed); progress is their need
    /// shrinking; it succeeds once every such peer is known complete. Pending is the most items
    /// any connected peer still needs.
    mutating func reconcileExport(_ peers: SyncthingPeers, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning else { return }
        let counted = self.countedPeers(peers)
        let known = counted.compactMap { self.completions[$0] }
        // Max, not sum: two peers missing the same file are one file not yet delivered.
        let pendingNow = known.map(\.needItems).max() ?? 0
        if self.pending != pendingNow {
            emitter.emit(.stateUpdate(pendingRecordZoneChanges: pendingNow, pendingDatabaseChanges: nil), for: &self, at: time)
            self.pending = pendingNow
        }
        // Progress: what the peers still counted need less of since the latest look.
        var delivered: Int64 = 0
        var bytesMoved = false
        for device in counted {
            guard let now = self.completions[device], let before = self.exportBaseline[device] else { continue }
            delivered = delivered.addingSaturated(max(0, before.needItems - now.needItems))
            bytesMoved = bytesMoved || now.needBytes < before.needBytes
        }
        self.exportBaseline = [:]
        for device in counted { self.exportBaseline[device] = self.completions[device] }
        // With nobody to export to, an export in flight stays open: nothing has reached anyone,
        // and the pair is `no_network` meanwhile.
        guard !counted.isEmpty else { return }
        if known.contains(where: \.isBehind) {
            if self.exportWord != .open {
                emitter.emit(.willSendChanges, for: &self, at: time)
                self.exportWord = .open
            } else if delivered > 0 || bytesMoved {
                emitter.emit(Self.sent(delivered), for: &self, at: time)
            }
            return
        }
        // Complete only when every counted peer reported since our latest change.
        let confirmed = counted.allSatisfy { self.completions[$0] != nil && !self.staleCompletions.contains($0) }
        guard confirmed else { return }
        switch self.exportWord {
        case .open:
            if delivered > 0 { emitter.emit(Self.sent(delivered), for: &self, at: time) }
            emitter.emit(.didSendChanges, for: &self, at: time)
        case .none, .failed:
            // Found complete without having seen it behind (at a snapshot, or on reconnect).
            emitter.emit(.willSendChanges, for: &self, at: time)
            emitter.emit(.didSendChanges, for: &self, at: time)
        case .succeeded:
            break
        }
        self.exportWord = .succeeded
    }

    /// A scan committed local changes: they are ours to export. The peers' completions are
    /// stale until Syncthing recomputes them (within 2 s, `FolderCompletion`).
    mutating func localChange(_ peers: SyncthingPeers, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        self.staleCompletions = Set(self.devices)
        guard self.isRunning, !self.countedPeers(peers).isEmpty else {
            // Nobody to send to: the change reaches the peers when they connect, and that is
            // the next export success.
            if self.exportWord == .succeeded { self.exportWord = .none }
            return
        }
        guard self.exportWord != .open else { return }
        emitter.emit(.willSendChanges, for: &self, at: time)
        self.exportWord = .open
    }

    /// A peer reports its download of our files: export progress.
    mutating func remoteDownload(from device: String, _ peers: SyncthingPeers, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning, self.exportWord == .open, peers.isCounted(device), self.devices.contains(device) else { return }
        emitter.emit(Self.sent(0), for: &self, at: time)
    }

    private static func sent(_ items: Int64) -> EventPayload {
        .sentRecordZoneChanges(savedRecords: items, deletedRecords: 0, failures: FailureDigest())
    }

    // MARK: Import

    /// A pull started: an import cycle opens.
    mutating func startPull(_ emitter: inout SyncthingEmitter, at time: Timestamp) {
        // What the folder needs changes as the pull goes; only a later summary says it again.
        self.needItems = nil
        guard self.isRunning else { return }
        emitter.emit(.willFetchChanges, for: &self, at: time)
        self.importWord = .open
        self.importFailedInCycle = false
    }

    /// The folder's error (`folderError`) with Syncthing's words for it as the message.
    private var folderError: SyncError {
        SyncError(code: SyncthingPullError.folderErrorCode, message: self.stateError.flatMap(ErrorMessage.clean))
    }

    /// A pull ended: the cycle ends, failed when it reported failed items or when the folder
    /// stopped on an error in the middle of it.
    mutating func endPull(folderFailed: Bool, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning, self.importWord == .open else { return }
        if folderFailed {
            emitter.emit(.error(phase: .import, error: self.folderError), for: &self, at: time)
        }
        emitter.emit(.didFetchChanges, for: &self, at: time)
        let failed = folderFailed || self.importFailedInCycle
        self.importWord = failed ? .failed : .succeeded
        if !failed { self.loggedFailure = nil }
    }

    /// An item was pulled: progress of the import (opening one if its start was missed).
    mutating func itemPulled(deletion: Bool, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning else { return }
        if self.importWord != .open {
            emitter.emit(.willFetchChanges, for: &self, at: time)
            self.importWord = .open
            self.importFailedInCycle = false
        }
        let payload = EventPayload.fetchedRecordZoneChanges(modifications: deletion ? 0 : 1, deletions: deletion ? 1 : 0)
        emitter.emit(payload, for: &self, at: time)
    }

    /// Bytes of a file in flight moved: progress of an open import.
    mutating func downloadProgressed(_ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning, self.importWord == .open else { return }
        emitter.emit(.fetchedRecordZoneChanges(modifications: 0, deletions: 0), for: &self, at: time)
    }

    /// A pull left failed items: they fail the cycle (one is opened to carry them if the pull's
    /// start was missed). The first actionable item is the error shown, else the first transient.
    mutating func itemsFailed(_ items: [SyncthingJSON.PathError], _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        self.errorCount = Int64(items.count)
        guard self.isRunning, let summary = SyncthingPullError.summarize(items) else { return }
        if self.importWord != .open {
            emitter.emit(.willFetchChanges, for: &self, at: time)
            self.importWord = .open
        }
        emitter.emit(.error(phase: .import, error: summary.error), for: &self, at: time)
        for other in summary.others { emitter.emit(.error(phase: .import, error: other), for: &self, at: time) }
        self.importFailedInCycle = true
        // Syncthing retries every minute with the same failure: log it when it changes.
        let logLine = "\(summary.path)\u{0}\(summary.message)"
        if self.loggedFailure != logLine {
            emitter.notice(.pullFailed(folder: self.database, count: items.count, path: summary.path, message: summary.message))
            self.loggedFailure = logLine
        }
        if !self.isPulling {
            emitter.emit(.didFetchChanges, for: &self, at: time)
            self.importWord = .failed
        }
    }

    /// Says where the import stands when Syncthing's word allows it: a folder pulling is an
    /// open import; a folder idle with nothing needed and no failed item is an import that
    /// succeeded at that moment (in sync is `succeeded`, never `not_syncing`). Anything else
    /// (scanning, waiting, idle with needs or errors) waits for the next pull or summary.
    /// `force` says it even when the core already has that word: a new setup needs an import
    /// that starts after it.
    mutating func observeImport(force: Bool, _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning, self.setupSucceeded == true else { return }
        if self.isPulling {
            guard force || self.importWord != .open else { return }
            emitter.emit(.willFetchChanges, for: &self, at: time)
            self.importWord = .open
            self.importFailedInCycle = false
        } else if self.isInSync {
            guard force || self.importWord != .succeeded else { return }
            emitter.emit(.willFetchChanges, for: &self, at: time)
            emitter.emit(.didFetchChanges, for: &self, at: time)
            self.importWord = .succeeded
            self.loggedFailure = nil
        }
    }

    /// At a snapshot: a folder that is not pulling but lists failed items ended its latest pull
    /// failed — unless the core already has that word.
    mutating func observeFailedItems(_ items: [SyncthingJSON.PathError], _ emitter: inout SyncthingEmitter, at time: Timestamp) {
        guard self.isRunning, self.setupSucceeded == true, !self.isPulling, !items.isEmpty, self.importWord != .failed else { return }
        self.importWord = .none
        self.itemsFailed(items, &emitter, at: time)
    }
}
