import Logging
import SyncmonContract
import SyncmonCore
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// One canary at work in the daemon: the pure ``Canary`` and the effects of its actions —
/// its file, its persisted `seq`, the peers' files, the state model, the journal.
///
/// Every failure is counted, shown in status and logged (rate-limited, naming the path);
/// none stops this canary's next interval or any other canary.
struct CanaryRunner: Sendable {
    let key: PairKey
    let directory: CanaryDirectory
    /// Where this canary's `seq` is persisted.
    let seqPath: String
    var canary: Canary
    /// The inotify watch on `PATH/.syncmon`, once it exists.
    var watch: Int32?
    /// Per error reason: when an entry was last logged, and how many went unlogged since.
    private var logged: [CanaryErrorReason: (at: MonotonicInstant, skipped: Int)] = [:]

    /// At most one error entry per reason and canary in this time.
    static let logInterval = TimeSpan.seconds(60 as Int64)

    init(key: PairKey, configuration: CanaryConfiguration, stateDirectory: String, startedAt: MonotonicInstant) {
        self.key = key
        self.directory = CanaryDirectory(path: configuration.path)
        self.seqPath = stateDirectory + "/canary-" + Self.fileName(for: key) + ".seq"
        // The larger of the persisted seq and the one in this host's own file: a state
        // directory lost or new must not restart the count below what peers have seen.
        let persisted = Self.readSeq(self.seqPath) ?? 0
        let own = configuration.mode.writes ? (self.directory.ownSeq(configuration.host) ?? 0) : 0
        self.canary = Canary(configuration: configuration, startedAt: startedAt, restoredSeq: max(persisted, own))
    }

    /// `engine/database` with every byte outside `[A-Za-z0-9._-]` written `%XX`: a safe file name.
    static func fileName(for key: PairKey) -> String {
        var name = ""
        for byte in "\(key.engine)/\(key.database)".utf8 {
            if EngineName.isAllowed(byte) {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name
    }

    /// The persisted `seq`; `nil` when there is none (or it is not a number).
    static func readSeq(_ path: String) -> Int64? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
        guard count > 0 else { return nil }
        return Int64(String(decoding: bytes[..<count].prefix { $0 != 0x0A }, as: UTF8.self))
    }

    /// One look at `now`: the due write and read (a read also when `changed` says a peer's
    /// file changed), then the status and completed cycles handed to the state model.
    mutating func step(at now: CanaryMoment, changed: Bool, suppressed: Bool, inotify: InotifyWatch?, model: any SourceStateModel, logger: Logger) {
        self.canary.setSuppressed(suppressed, at: now.monotonic)
        var actions = self.canary.tick(at: now)
        if changed, self.canary.configuration.mode.reads, !actions.contains(.readPeers) { actions.append(.readPeers) }
        var cycles: [(phase: Phase, at: Timestamp)] = []
        var index = 0
        while index < actions.count {
            switch actions[index] {
            case .write(let file):
                self.write(file, at: now, logger: logger)
            case .readPeers:
                do throws(CanaryDirectory.Failure) {
                    let reads = try self.directory.readPeers(except: self.canary.configuration.host)
                    actions += self.canary.read(reads, at: now)
                } catch {
                    self.canary.failed(.read, detail: error.description)
                    self.logError(.read, error.description, at: now.monotonic, logger: logger)
                }
            case .moved:
                cycles.append((.import, now.wall))
            case .acknowledged:
                cycles.append((.export, now.wall))
            case .late, .recovered, .forgotten:
                self.report(actions[index], logger: logger)
            case .rejected(let reason, let name, let detail):
                self.logError(reason, "\(self.directory.directory)/\(name): \(detail)", at: now.monotonic, logger: logger)
            }
            index += 1
        }
        if self.watch == nil, let inotify { self.watch = inotify.watch(self.directory.directory, own: self.canary.configuration.host.fileName) }
        model.canary(self.key, self.canary.status, cycles: cycles, now: now.wall)
    }

    /// Persists a new `seq` first (a crash never reuses one), then writes the file. An
    /// acknowledgement rewrites the `seq` written already: nothing new to persist.
    private mutating func write(_ file: CanaryFile, at now: CanaryMoment, logger: Logger) {
        do {
            if file.seq > self.canary.seq { try AtomicFile.write(Array("\(file.seq)\n".utf8), to: self.seqPath) }
        } catch {
            let detail = "cannot persist the canary's seq: \(error)"
            self.canary.failed(.write, detail: detail)
            self.logError(.write, detail, at: now.monotonic, logger: logger)
            return
        }
        do throws(CanaryDirectory.Failure) {
            try self.directory.write(file)
            self.canary.wrote(file, at: now.monotonic)
        } catch {
            self.canary.failed(.write, detail: error.description)
            self.logError(.write, error.description, at: now.monotonic, logger: logger)
        }
    }

    private var metadata: Logger.Metadata {
        [
            SyncmonMetadataKey.engine: "\(self.key.engine)",
            SyncmonMetadataKey.database: "\(self.key.database)",
            SyncmonMetadataKey.canaryPath: "\(self.directory.path)",
        ]
    }

    /// A peer late, on time again, or forgotten: one entry each.
    private func report(_ action: CanaryAction, logger: Logger) {
        var metadata = self.metadata
        switch action {
        case .late(let peer, let lateness):
            metadata[SyncmonMetadataKey.messageID] = MessageID.canaryLate.metadataValue
            metadata[SyncmonMetadataKey.canaryPeer] = "\(peer)"
            metadata[SyncmonMetadataKey.canaryRule] = "\(lateness)"
            logger.warning("canary peer late", metadata: metadata)
        case .recovered(let peer):
            metadata[SyncmonMetadataKey.messageID] = MessageID.canaryRecovered.metadataValue
            metadata[SyncmonMetadataKey.canaryPeer] = "\(peer)"
            logger.notice("canary peer on time again", metadata: metadata)
        case .forgotten(let peer):
            metadata[SyncmonMetadataKey.messageID] = MessageID.canaryForgotten.metadataValue
            metadata[SyncmonMetadataKey.canaryPeer] = "\(peer)"
            metadata[SyncmonMetadataKey.reason] = "silent for \(self.canary.configuration.forgetAfter.seconds) s"
            logger.info("canary peer forgotten", metadata: metadata)
        default:
            break
        }
    }

    /// An error entry, at most one per reason per ``logInterval``; the count of the ones
    /// skipped rides on the next.
    private mutating func logError(_ reason: CanaryErrorReason, _ detail: String, at now: MonotonicInstant, logger: Logger) {
        if let last = self.logged[reason], now < last.at.adding(Self.logInterval) {
            self.logged[reason] = (last.at, last.skipped + 1)
            return
        }
        let skipped = self.logged[reason]?.skipped ?? 0
        self.logged[reason] = (now, 0)
        var metadata = self.metadata
        metadata[SyncmonMetadataKey.messageID] = MessageID.canaryError.metadataValue
        metadata[SyncmonMetadataKey.canaryError] = "\(reason)"
        metadata[SyncmonMetadataKey.reason] = "\(detail)"
        if skipped > 0 { metadata[SyncmonMetadataKey.skipped] = "\(skipped)" }
        logger.warning("canary error", metadata: metadata)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - self.count)) + self
    }
}
