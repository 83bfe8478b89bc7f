import SyncmonCore

extension SyncthingAdapter {
    /// Takes one answer of the long-poll: the raw JSON array of `/rest/events`.
    ///
    /// The answer itself is a sign of life: running pairs without another event in it get a
    /// `heartbeat` at `now`. Ids must follow `since`: a jump (Syncthing's ring of 1,000 events
    /// overflowed) or a step back (another Syncthing answers) sets `needsSnapshot`. A body that
    /// does not decode throws, and also sets `needsSnapshot`.
    public mutating func ingest(events body: [UInt8], at now: Timestamp) throws(SyncthingAdapterError) -> SyncthingOutput {
        let events: [SyncthingEvent]
        do {
            events = try SyncthingJSON.decode([SyncthingEvent].self, from: body)
        } catch {
            self.needsSnapshot = true
            guard case .undecodable(_, let detail) = error else { throw error }
            throw .undecodable(what: "/rest/events", detail: detail)
        }
        var emitter = SyncthingEmitter(engine: self.engine, heartbeatInterval: self.heartbeatInterval)
        for event in events {
            if event.id <= self.since {
                // Not what a poll with `since` can answer: ids restarted under us. The rest of the
                // batch belongs to a history the snapshot reads instead.
                emitter.notice(.eventIDsRestarted(since: self.since, next: event.id))
                self.needsSnapshot = true
                self.needsCatchUp = true
                break
            }
            if event.id > self.since + 1, !self.needsSnapshot {
                emitter.notice(.eventsLost(since: self.since, next: event.id))
                self.needsSnapshot = true
            }
            self.since = event.id
            let time = self.time(of: event.time, now: now)
            self.apply(event, at: time, &emitter)
        }
        // The network as the batch leaves it, at the time of its last event.
        for id in self.folders.keys.sorted() {
            self.folders[id]!.reconcileNetwork(self.peers, &emitter, at: self.lastTime)
        }
        self.heartbeats(at: now, &emitter)
        return emitter.output
    }

    /// A `heartbeat` for each running pair that had no event for a second: liveness stays
    /// within a second of the latest answer without doubling every busy batch.
    mutating func heartbeats(at now: Timestamp, _ emitter: inout SyncthingEmitter) {
        let time = max(self.lastTime, now)
        self.lastTime = time
        for id in self.folders.keys.sorted() where self.folders[id]!.isRunning {
            guard time.since(self.folders[id]!.lastEmitted) >= .seconds(1 as Int64) else { continue }
            emitter.emit(.heartbeat, for: &self.folders[id]!, at: time)
        }
    }

    private mutating func apply(_ event: SyncthingEvent, at time: Timestamp, _ emitter: inout SyncthingEmitter) {
        let peers = self.peers
        switch event.payload {
        case .stateChanged(let id, let from, let to, let error):
            self.stateChanged(id, from: from, to: to, error: error, at: time, &emitter)
        case .folderSummary(let id, let summary):
            self.withFolder(id) { folder in
                folder.needItems = summary.needTotalItems
                folder.errorCount = summary.errorCount
                if folder.state == nil, let state = summary.state, !state.isEmpty { folder.state = state }
                folder.reconcile(peers, &emitter, at: time, network: false)
                folder.observeImport(force: false, &emitter, at: time)
            }
        case .folderCompletion(let completion):
            self.completed(completion, at: time, &emitter)
        case .folderErrors(let id, let items):
            self.withFolder(id) { $0.itemsFailed(items, &emitter, at: time) }
        case .folderPaused(let id):
            self.withFolder(id) { folder in
                folder.paused = true
                folder.state = nil
                folder.reconcile(peers, &emitter, at: time, network: false)
            }
        case .folderResumed(let id):
            self.withFolder(id) { folder in
                folder.paused = false
                folder.reconcile(peers, &emitter, at: time, network: false)
            }
            // The folder restarts: its state, need and errors are read again.
            if self.folders[id] != nil { self.needsSnapshot = true }
        case .deviceConnected(let device):
            guard device != self.localDevice else { return }
            self.peers.connected.insert(device)
            self.reconcileFolders(sharedWith: device, at: time, &emitter)
        case .deviceDisconnected(let device):
            self.peers.connected.remove(device)
            self.reconcileFolders(sharedWith: device, at: time, &emitter)
        case .devicePaused(let device):
            self.peers.paused.insert(device)
            self.reconcileFolders(sharedWith: device, at: time, &emitter)
        case .deviceResumed(let device):
            self.peers.paused.remove(device)
            self.reconcileFolders(sharedWith: device, at: time, &emitter)
        case .itemFinished(let id, let action, let error):
            // Failed items come together in `FolderErrors` at the end of the pull.
            guard error?.isEmpty ?? true else { return }
            self.withFolder(id) { $0.itemPulled(deletion: action == "delete", &emitter, at: time) }
        case .downloadProgress(let ids):
            for id in ids { self.withFolder(id) { $0.downloadProgressed(&emitter, at: time) } }
        case .remoteDownloadProgress(let id, let device, let active):
            guard active else { return }
            self.withFolder(id) { $0.remoteDownload(from: device, peers, &emitter, at: time) }
        case .localIndexUpdated(let id):
            // During a scan the committed items are local changes; during a pull they are the
            // peers' changes arriving, nothing to export.
            self.withFolder(id) { folder in
                guard folder.state == "scanning" else { return }
                folder.localChange(peers, &emitter, at: time)
            }
        case .configSaved(let config):
            self.apply(config, at: time, &emitter)
        case .ignored:
            break
        case .malformed(let type):
            emitter.notice(.malformedEvent(id: event.id, type: type))
        }
    }

    /// A folder's `StateChanged`: a pull starts or ends, and the pair's phases follow.
    private mutating func stateChanged(
        _ id: String, from: String?, to: String, error: String?, at time: Timestamp, _ emitter: inout SyncthingEmitter
    ) {
        let peers = self.peers
        self.withFolder(id) { folder in
            let wasPulling = from.map(SyncthingFolder.pullStates.contains) ?? folder.isPulling
            let isPulling = SyncthingFolder.pullStates.contains(to)
            folder.state = to
            folder.stateError = to == "error" ? error : nil
            if wasPulling, !isPulling { folder.endPull(folderFailed: to == "error", &emitter, at: time) }
            if isPulling, !wasPulling || folder.importWord != .open { folder.startPull(&emitter, at: time) }
            folder.reconcile(peers, &emitter, at: time, network: false)
            if to == "idle" { folder.observeImport(force: false, &emitter, at: time) }
        }
        if from == "error", to != "error" {
            // Leaving an error: what the folder needs now is not known until a snapshot.
            self.needsSnapshot = true
        }
    }

    /// A `FolderCompletion`: how far a peer has the folder, which moves the export.
    private mutating func completed(_ completion: SyncthingJSON.Completion, at time: Timestamp, _ emitter: inout SyncthingEmitter) {
        guard let device = completion.device else { return }
        let peers = self.peers
        self.withFolder(completion.folder ?? "") { folder in
            guard folder.devices.contains(device) else { return }
            folder.completions[device] = SyncthingFolder.Completion(completion)
            folder.staleCompletions.remove(device)
            folder.reconcileExport(peers, &emitter, at: time)
        }
    }

    /// Runs `body` on a reported folder; events about other folders (rejected ids, folders not
    /// yet read) are skipped.
    private mutating func withFolder(_ id: String, _ body: (inout SyncthingFolder) -> Void) {
        guard self.folders[id] != nil else { return }
        body(&self.folders[id]!)
    }

    private mutating func reconcileFolders(sharedWith device: String, at time: Timestamp, _ emitter: inout SyncthingEmitter) {
        let peers = self.peers
        for id in self.folders.keys.sorted() where self.folders[id]!.devices.contains(device) {
            self.folders[id]!.reconcile(peers, &emitter, at: time, network: false)
        }
    }

    /// A saved configuration: pause flags take effect at once; a folder added, removed, resumed
    /// or shared differently is read again in a snapshot.
    private mutating func apply(_ config: SyncthingJSON.Config, at time: Timestamp, _ emitter: inout SyncthingEmitter) {
        let configured = (config.folders ?? []).filter { Self.database(forFolder: $0.id) != nil }
        var reread = Set(configured.map(\.id)) != Set(self.folders.keys)
        self.peers.paused = Set((config.devices ?? []).filter { $0.paused ?? false }.map(\.deviceID))
        for entry in configured {
            guard var folder = self.folders[entry.id] else { continue }
            let devices = entry.remoteDevices(excluding: self.localDevice)
            if devices != folder.devices || (entry.type ?? "sendreceive") != folder.type { reread = true }
            let paused = entry.paused ?? false
            if folder.paused, !paused { reread = true }
            folder.paused = paused
            if paused { folder.state = nil }
            self.folders[entry.id] = folder
        }
        let peers = self.peers
        for id in self.folders.keys.sorted() { self.folders[id]!.reconcile(peers, &emitter, at: time, network: false) }
        if reread, !self.needsSnapshot {
            emitter.notice(.configurationChanged)
            self.needsSnapshot = true
        }
    }
}
