import SyncmonCore

/// What the adapter knows about one reported folder, and what it last told the core about it.
///
/// Two halves: Syncthing's word (configuration, state, need, errors, the peers' completion),
/// kept current from every event even while the pair is stopped; and the emitted view (is an
/// import or export cycle open, is the pair running, the last network and pending values), which
/// lets each rule emit only real changes.
struct SyncthingFolder: Sendable {
    /// The folder id, which is the pair's database.
    let database: Database

    // MARK: Syncthing's word

    /// `type` from the configuration: a `sendonly` folder never pulls what it needs.
    var type: String
    var paused: Bool
    /// Remote devices sharing the folder (the local device excluded).
    var devices: [String]
    /// The folder state (`idle`, `scanning`, `sync-preparing`, `syncing`, `error`, …); `nil`
    /// while unknown (paused, not read yet).
    var state: String? = nil
    /// The folder error's text while `state` is `error`.
    var stateError: String? = nil
    /// `needTotalItems` of the latest summary; `nil` when unknown or stale (a pull started since).
    var needItems: Int64? = nil
    /// The folder's error count (scan and pull), from the latest summary or `FolderErrors`.
    var errorCount: Int64 = 0
    /// The latest completion each remote device reported, by device id.
    var completions: [String: Completion] = [:]
    /// Devices whose completion predates a local change: it cannot say the change arrived.
    var staleCompletions: Set<String> = []

    /// A remote device's completion of this folder.
    struct Completion: Equatable, Sendable {
        var percent: Double
        /// Items (files, directories, deletes) the device still needs from the cluster.
        var needItems: Int64
        var needBytes: Int64

        init(_ completion: SyncthingJSON.Completion) {
            self.percent = completion.completion
            self.needItems = max(0, completion.needItems ?? 0).addingSaturated(max(0, completion.needDeletes ?? 0))
            self.needBytes = max(0, completion.needBytes ?? 0)
        }

        /// The device lacks something this folder has.
        var isBehind: Bool { self.percent < 100 || self.needItems > 0 }
    }

    // MARK: What the core was told

    /// Whether the pair was ever reported, and how it stands.
    enum Reported: Equatable, Sendable {
        case never
        case running
        case stopped
    }

    /// The latest word on a phase's cycles.
    enum CycleWord: Equatable, Sendable {
        /// Nothing said yet (first sight, after a restart).
        case none
        case open
        case succeeded
        case failed
    }

    var reported = Reported.never
    /// `engineStarted` is due (first sight, resume, every snapshot).
    var startDue = true
    /// The outcome of the latest setup `containerEvent`; `nil` when one is due.
    var setupSucceeded: Bool? = nil
    /// Setup operations emitted, which number their `containerEvent` ids.
    var setupOperations: UInt64 = 0
    /// Where the latest import cycle stands.
    var importWord = CycleWord.none
    /// A failed item was reported inside the open import cycle.
    var importFailedInCycle = false
    /// The failure last logged, so that each of Syncthing's retries is not logged again.
    var loggedFailure: String? = nil
    /// Where the latest export cycle stands.
    var exportWord = CycleWord.none
    /// What each counted peer needed at the latest look (progress is its shrinking; a peer that
    /// leaves takes its need along, delivered or not).
    var exportBaseline: [String: Completion] = [:]
    var network: Bool? = nil
    var pending: Int64? = nil
    /// The time of the latest event emitted for the pair (heartbeats fill the silence).
    var lastEmitted = Timestamp.distantPast

    init(database: Database, config: SyncthingJSON.Config.Folder, localDevice: String) {
        self.database = database
        self.type = config.type ?? "sendreceive"
        self.paused = config.paused ?? false
        self.devices = config.remoteDevices(excluding: localDevice)
    }

    /// Whether the folder pulls at all: a send-only folder never takes what it needs.
    var pulls: Bool { self.type != "sendonly" }

    var isRunning: Bool { self.reported == .running }

    /// Idle with nothing needed and no failed item: the folder has everything the cluster has.
    var isInSync: Bool {
        self.state == "idle" && self.errorCount == 0 && (!self.pulls || self.needItems == 0)
    }
}
