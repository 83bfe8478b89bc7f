import Logging
import SyncmonContract
import SyncmonCore
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// Follows an append-only JSONL file like `tail -F` (a `file:` source).
///
/// - Polls every 250 ms: reads what was appended, line by line through the same framing and
///   decoding as the push socket. A last line without `\n` waits for its end.
/// - Truncation (size below the read position, e.g. `copytruncate`): reads again from 0.
/// - Rotation (the path names another file): reads what is left of the old file through the
///   descriptor still open, then reads the new file from 0. The old file stays open for
///   ``retireGrace`` more, so lines a writer appends before it reopens are still read; then its
///   last line without `\n` counts as complete. While the path names no file at all (between a
///   rename and the new file's creation) the old file is followed on, for up to ``missingGrace``.
/// - Start: where the saved offset says (same device and inode); a file rotated while the daemon
///   was down is found again by its inode in the same directory and read to its end first. Without
///   a saved offset: at the end (after the last complete line) the file had when the daemon
///   started, unless `--from-start`. A file that does not exist yet is read from 0 once it appears.
/// - The offset (the start of the first line not yet applied) is saved in
///   `<state-dir>/sources/<name>.offset` at most a second after it moved, at once on rotation or
///   truncation, and on shutdown.
struct FileFollower {
    let name: String
    let path: String
    let fromStart: Bool
    /// The source's context: its ingest, health and state directory.
    let context: SourceContext
    let health: SourceHealth
    let stateFile: SourceStateFile<FileOffsetDocument>
    let logger: Logger
    let pollInterval: TimeSpan
    let saveInterval: TimeSpan
    let retireGrace: TimeSpan
    let missingGrace: TimeSpan
    var backoff: ReconnectBackoff
    /// Where the file ended when the daemon started (see ``startSnapshot(path:maximumLineLength:)``).
    let snapshot: StartSnapshot?

    /// The end of the file (after its last complete line) as the daemon starts, taken before it
    /// reports ready: lines appended after `READY=1` are always read, even when the follower's
    /// first poll comes a little later. `nil` when there is no such file.
    struct StartSnapshot: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var offset: Int64
    }

    static func startSnapshot(path: String, maximumLineLength: Int) -> StartSnapshot? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return StartSnapshot(
            device: UInt64(status.st_dev),
            inode: UInt64(status.st_ino),
            offset: Self.endOfLastLine(descriptor, size: Int64(status.st_size), maximumLineLength: maximumLineLength)
        )
    }

    /// One open file and how far it has been read.
    private struct OpenFile {
        var descriptor: Int32
        var device: UInt64
        var inode: UInt64
        /// Bytes read.
        var readOffset: Int64
        /// Bytes after the last `\n` read (the partial line the framer holds).
        var partialLength: Int64 = 0
        /// Its own framer: a rotated file's last line must not run into the new file's first.
        let ingest: any SourceIngest
        /// The start of the first line not yet applied: what is saved.
        var lineOffset: Int64 { self.readOffset - self.partialLength }
    }

    /// Where to start reading a file that was just opened.
    private enum StartPosition {
        case offset(Int64)
        /// At `offset` if the opened file is still that device and inode, else at 0.
        case sameFile(device: UInt64, inode: UInt64, offset: Int64)
    }

    private var current: OpenFile?
    /// The file rotated away, still read until the deadline.
    private var retired: (file: OpenFile, until: MonotonicInstant)?
    /// Since when the path names no file while `current` is still open.
    private var missingSince: MonotonicInstant?
    private var pendingStart = StartPosition.offset(0)
    private var lastSaved: FileOffsetDocument?
    private var lastSaveTime: MonotonicInstant
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)

    init(
        context: SourceContext,
        path: String,
        fromStart: Bool,
        pollInterval: TimeSpan = TimeSpan(microseconds: 250_000),
        saveInterval: TimeSpan = .seconds(Int64(1)),
        retireGrace: TimeSpan = .seconds(Int64(2)),
        missingGrace: TimeSpan = .seconds(Int64(5)),
        backoff: ReconnectBackoff = ReconnectBackoff(initial: 0.25, maximum: 5, jitter: 0.2),
        snapshot: StartSnapshot? = nil
    ) {
        self.context = context
        self.name = context.name
        self.path = path
        self.fromStart = fromStart
        self.health = context.health
        self.stateFile = SourceStateFile(stateDirectory: context.stateDirectory, name: context.name, suffix: "offset")
        self.logger = context.logger
        self.pollInterval = pollInterval
        self.saveInterval = saveInterval
        self.retireGrace = retireGrace
        self.missingGrace = missingGrace
        self.backoff = backoff
        self.snapshot = snapshot
        self.lastSaveTime = context.clock.monotonicTime()
    }

    private var metadata: Logger.Metadata { [SyncmonMetadataKey.source: "\(self.name)"] }

    /// The source and the file an entry is about.
    private func metadata(path: String) -> Logger.Metadata {
        [SyncmonMetadataKey.source: "\(self.name)", SyncmonMetadataKey.sourcePath: "\(path)"]
    }

    /// Follows the file until the task is cancelled, then saves the offset.
    mutating func run() async {
        self.pendingStart = self.initialStart()
        while !Task.isCancelled {
            if self.current == nil {
                switch self.open(start: self.pendingStart) {
                case .success(let file):
                    self.current = file
                    self.pendingStart = .offset(0)
                    self.backoff.reset()
                    self.health.connected("\(self.path) from byte \(file.lineOffset)")
                case .failure(let reason):
                    self.pollRetired(force: false)
                    let delay = self.backoff.nextDelay()
                    self.health.disconnected(reason, retryIn: delay)
                    try? await self.context.clock.sleep(for: .seconds(delay))
                    if !Task.isCancelled { self.health.countReconnect() }
                    continue
                }
            }
            let progressed = self.poll()
            self.saveIfDue(force: false)
            if progressed {
                // More may be waiting (a large backlog is read in slices): yield, do not sleep.
                await Task.yield()
            } else {
                try? await self.context.clock.sleep(for: self.pollInterval)
            }
        }
        // Whatever arrived until now is read before stopping: a restart starts right after it.
        if var file = self.current {
            _ = self.read(&file, budget: .max)
            self.current = file
        }
        self.pollRetired(force: true)
        self.saveIfDue(force: true)
        if let file = self.current { close(file.descriptor) }
        self.current = nil
    }

    // MARK: Starting

    /// Where the first open starts, from the saved offset (draining a file rotated meanwhile).
    private mutating func initialStart() -> StartPosition {
        let fresh: StartPosition
        if self.fromStart {
            fresh = .offset(0)
        } else if let snapshot = self.snapshot {
            fresh = .sameFile(device: snapshot.device, inode: snapshot.inode, offset: snapshot.offset)
        } else {
            // No file at start: one that appears later is new, and read whole.
            fresh = .offset(0)
        }
        guard let loaded = self.stateFile.load() else { return fresh }
        let saved: FileOffsetDocument
        switch loaded {
        case .success(let document):
            saved = document
        case .failure(let error):
            var metadata = self.metadata
            metadata[SyncmonMetadataKey.statePath] = "\(self.stateFile.path)"
            metadata[SyncmonMetadataKey.reason] = "\(error)"
            self.logger.warning("subscribe source offset file unreadable; starting afresh", metadata: metadata)
            return fresh
        }
        self.lastSaved = saved
        // The source now names another file under the same name: the saved offset says nothing.
        guard saved.path == self.path else { return fresh }
        var status = stat()
        if stat(self.path, &status) == 0, UInt64(status.st_dev) == saved.device, UInt64(status.st_ino) == saved.inode {
            return .sameFile(device: saved.device, inode: saved.inode, offset: saved.offset)
        }
        // Rotated (or replaced) while the daemon was down: finish the old file first if it is
        // still next to the new one (`events.jsonl.1`), then read the new one whole.
        if let old = Self.find(device: saved.device, inode: saved.inode, near: self.path) {
            self.logger.info("subscribe source reading the rest of a file rotated while syncmon was down", metadata: self.metadata(path: old))
            let descriptor = Glibc.open(old, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                var size = stat()
                if fstat(descriptor, &size) == 0, Int64(size.st_size) >= saved.offset {
                    var file = OpenFile(
                        descriptor: descriptor,
                        device: saved.device,
                        inode: saved.inode,
                        readOffset: saved.offset,
                        ingest: self.makeIngest()
                    )
                    _ = self.read(&file, budget: .max)
                    file.ingest.finish()
                }
                close(descriptor)
            }
        }
        return .offset(0)
    }

    /// The path of the file with `device` and `inode` in the directory of `path`, if any.
    private static func find(device: UInt64, inode: UInt64, near path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let directoryPath = slash == path.startIndex ? "/" : String(path[..<slash])
        guard let directory = opendir(directoryPath) else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            guard UInt64(entry.pointee.d_ino) == inode else { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let candidate = (directoryPath == "/" ? "" : directoryPath) + "/" + name
            var status = stat()
            if stat(candidate, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode {
                return candidate
            }
        }
        return nil
    }

    private func makeIngest() -> any SourceIngest {
        self.context.makeIngest()
    }

    private enum OpenResult {
        case success(OpenFile)
        case failure(String)
    }

    /// Opens the path and positions the read offset.
    private mutating func open(start: StartPosition) -> OpenResult {
        let descriptor = Glibc.open(self.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return .failure(errno == ENOENT ? "\(self.path) does not exist" : "cannot open \(self.path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .failure("cannot stat \(self.path): \(reason)")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return .failure("\(self.path) is not a regular file")
        }
        let device = UInt64(status.st_dev)
        let inode = UInt64(status.st_ino)
        let size = Int64(status.st_size)
        let offset: Int64
        switch start {
        case .offset(let wanted):
            offset = wanted <= size ? wanted : 0
        case .sameFile(let savedDevice, let savedInode, let wanted):
            // Another file, or shorter than the offset (truncated meanwhile): from the start.
            offset = savedDevice == device && savedInode == inode && wanted <= size ? wanted : 0
        }
        return .success(OpenFile(descriptor: descriptor, device: device, inode: inode, readOffset: offset, ingest: self.makeIngest()))
    }

    /// The position just after the last `\n` (looking back one line length), else the end.
    private static func endOfLastLine(_ descriptor: Int32, size: Int64, maximumLineLength: Int) -> Int64 {
        guard size > 0 else { return 0 }
        let window = min(size, Int64(maximumLineLength + 2))
        let start = size - window
        var data = [UInt8](repeating: 0, count: Int(window))
        let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
        guard count > 0, let last = data[..<count].lastIndex(of: 0x0A) else { return size }
        return start + Int64(last) + 1
    }

    // MARK: Following

    /// One poll: read what was appended, then check for truncation and rotation. `true` when
    /// it read something (more may follow at once).
    private mutating func poll() -> Bool {
        guard var file = self.current else { return false }
        var status = stat()
        guard fstat(file.descriptor, &status) == 0 else {
            self.lose(file, "cannot stat \(self.path): \(String(cString: strerror(errno)))")
            return false
        }
        if Int64(status.st_size) < file.readOffset {
            self.logger.notice("subscribe source file truncated; reading it from the start", metadata: self.metadata(path: self.path))
            file.readOffset = 0
            file.partialLength = 0
            file.ingest.discardPartialLine()
            self.current = file
            self.saveIfDue(force: true)
        }
        guard let read = self.read(&file, budget: 8 << 20) else {
            self.lose(file, "cannot read \(self.path): \(String(cString: strerror(errno)))")
            return false
        }
        self.current = file
        self.pollRetired(force: false)
        if read > 0 { return true }

        // At the end of the open file: does the path still name it?
        var named = stat()
        guard stat(self.path, &named) == 0 else {
            guard errno == ENOENT else { return false }
            // Renamed away and not (yet) recreated: go on reading the old file for a while.
            let now = self.context.clock.monotonicTime()
            let since = self.missingSince ?? now
            self.missingSince = since
            guard now.since(since) >= self.missingGrace else { return false }
            self.logger.notice("subscribe source file removed", metadata: self.metadata(path: self.path))
            file.ingest.finish()
            file.partialLength = 0
            self.current = file
            self.saveIfDue(force: true)
            close(file.descriptor)
            self.current = nil
            self.missingSince = nil
            self.pendingStart = .offset(0)
            return false
        }
        self.missingSince = nil
        if UInt64(named.st_dev) == file.device, UInt64(named.st_ino) == file.inode { return false }

        // Rotated: the path names a new file. Retire the old one (still read for a while, for
        // lines its writer appends before reopening), and read the new one from 0.
        if let old = self.retired {
            self.retire(old.file)
            self.retired = nil
        }
        self.retired = (file, self.context.clock.monotonicTime().adding(self.retireGrace))
        self.current = nil
        self.health.countReconnect()
        self.logger.info("subscribe source file rotated; following the new file", metadata: self.metadata(path: self.path))
        switch self.open(start: .offset(0)) {
        case .success(let new):
            self.current = new
            self.saveIfDue(force: true)
        case .failure:
            self.pendingStart = .offset(0)
        }
        return true
    }

    /// Reads stragglers from the rotated-away file; closes it once its grace is over.
    private mutating func pollRetired(force: Bool) {
        guard var old = self.retired else { return }
        _ = self.read(&old.file, budget: .max)
        if force || self.context.clock.monotonicTime() >= old.until {
            self.retire(old.file)
            self.retired = nil
        } else {
            self.retired = old
        }
    }

    /// The old file can no longer grow: its last line without `\n` is complete.
    private func retire(_ file: OpenFile) {
        file.ingest.finish()
        close(file.descriptor)
    }

    /// Reads up to `budget` bytes from the read offset; the count, or `nil` after a read error.
    private mutating func read(_ file: inout OpenFile, budget: Int64) -> Int64? {
        var total: Int64 = 0
        while total < budget {
            let offset = file.readOffset
            let descriptor = file.descriptor
            let count = self.buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            self.buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[..<count])
                file.ingest.feed(chunk)
                if let newline = chunk.lastIndex(of: 0x0A) {
                    file.partialLength = Int64(count - newline - 1)
                } else {
                    file.partialLength += Int64(count)
                }
            }
            file.readOffset += Int64(count)
            total += Int64(count)
        }
        _ = file.ingest.takeDelivered()
        return total
    }

    /// The open file failed: close it and reopen (the same file continues after its last
    /// complete line) with backoff.
    private mutating func lose(_ file: OpenFile, _ reason: String) {
        close(file.descriptor)
        self.current = nil
        self.pendingStart = .sameFile(device: file.device, inode: file.inode, offset: file.lineOffset)
        var metadata = self.metadata(path: self.path)
        metadata[SyncmonMetadataKey.reason] = "\(reason)"
        self.logger.warning("subscribe source cannot read its file; opening it again", metadata: metadata)
    }

    // MARK: Saving

    private mutating func saveIfDue(force: Bool) {
        guard let file = self.current else { return }
        let document = FileOffsetDocument(path: self.path, device: file.device, inode: file.inode, offset: file.lineOffset)
        guard document != self.lastSaved else { return }
        let now = self.context.clock.monotonicTime()
        guard force || now.since(self.lastSaveTime) >= self.saveInterval else { return }
        do {
            try self.stateFile.save(document)
            self.lastSaved = document
            self.lastSaveTime = now
        } catch {
            self.lastSaveTime = now
            var metadata = self.metadata
            metadata[SyncmonMetadataKey.statePath] = "\(self.stateFile.path)"
            metadata[SyncmonMetadataKey.reason] = "\(error)"
            self.logger.error("subscribe source cannot save its offset", metadata: metadata)
        }
    }
}
