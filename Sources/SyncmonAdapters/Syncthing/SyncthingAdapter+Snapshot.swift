import SyncmonCore

extension SyncthingAdapter {
    /// Takes a complete snapshot (an incomplete one is ignored: `needsSnapshot` stays set).
    ///
    /// Every folder is read afresh; each running pair gets `engineStarted` again (which also ties
    /// it to the source's current connection). At the first snapshot, and after a restart, each
    /// folder's setup is said again and its import and export as found: pulling is an open
    /// import, idle with nothing needed an import that succeeded now, idle with failed items a
    /// failed one; peers all complete an export that succeeded now.
    public mutating func ingest(snapshot: SyncthingSnapshot, at now: Timestamp) -> SyncthingOutput {
        var emitter = SyncthingEmitter(engine: self.engine, heartbeatInterval: self.heartbeatInterval)
        guard snapshot.isComplete, let status = snapshot.status, let connections = snapshot.connections,
            let config = snapshot.config
        else { return emitter.output }
        let time = self.time(of: nil, now: now)
        let restarted = snapshot.restarted
        if restarted { emitter.notice(.restarted(startTime: status.startTime)) }
        self.startTime = status.startTime
        self.localDevice = status.myID
        if let latest = snapshot.latestEventID {
            self.since = latest
            self.needsCatchUp = false
        }
        self.needsSnapshot = false

        self.peers.connected = Set(connections.connections.filter { $0.value.connected ?? false }.keys)
        self.peers.connected.remove(status.myID)
        let pausedInConfig = (config.devices ?? []).filter { $0.paused ?? false }.map(\.deviceID)
        let pausedConnections = connections.connections.filter { $0.value.paused ?? false }.keys
        self.peers.paused = Set(pausedInConfig).union(pausedConnections)

        var configured: Set<String> = []
        var rejected: Set<String> = []
        for entry in (config.folders ?? []).sorted(by: { $0.id < $1.id }) {
            guard let database = Self.database(forFolder: entry.id) else {
                rejected.insert(entry.id)
                if !self.rejected.contains(entry.id) {
                    emitter.notice(.folderRejected(id: entry.id, reason: Self.rejectionReason(forFolder: entry.id) ?? "not a valid name"))
                }
                continue
            }
            configured.insert(entry.id)
            var folder = self.folders[entry.id] ?? SyncthingFolder(database: database, config: entry, localDevice: status.myID)
            folder.type = entry.type ?? "sendreceive"
            folder.paused = entry.paused ?? false
            folder.devices = entry.remoteDevices(excluding: status.myID)
            if restarted {
                // A new Syncthing process: setup, import and export are all said again.
                folder.setupSucceeded = nil
                folder.importWord = .none
                folder.exportWord = .none
                folder.network = nil
                folder.pending = nil
                folder.completions = [:]
            }
            folder.startDue = true
            let items = snapshot.folderErrors[entry.id] ?? []
            if let answer = snapshot.folderStatus[entry.id], let state = answer.state, !state.isEmpty {
                folder.state = state
                folder.stateError = state == "error" ? answer.error : nil
                folder.needItems = answer.needTotalItems
                folder.errorCount = max(answer.errorCount, Int64(items.count))
            } else {
                // Paused or not running: Syncthing answers zeros, which say nothing.
                folder.state = nil
            }
            folder.staleCompletions = []
            for (device, completion) in snapshot.completions[entry.id] ?? [:] {
                folder.completions[device] = SyncthingFolder.Completion(completion)
            }
            folder.reconcile(self.peers, &emitter, at: time)
            folder.observeFailedItems(items, &emitter, at: time)
            folder.observeImport(force: false, &emitter, at: time)
            self.folders[entry.id] = folder
        }
        self.rejected = rejected
        for id in self.folders.keys.sorted() where !configured.contains(id) {
            // Removed from Syncthing: stopped, then forgotten (the pair stays in syncmon as
            // `stopped` until an operator clears it).
            if self.folders[id]!.isRunning { emitter.emit(.engineStopped, for: &self.folders[id]!, at: time) }
            self.folders[id] = nil
        }
        return emitter.output
    }
}
