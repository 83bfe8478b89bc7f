import SyncmonContract
import SyncmonLock

#if canImport(Glibc)
import Glibc
#endif

/// Tells the canary service when a file named like a canary changed in a watched directory,
/// so peers are read sooner than their interval (docs/canary.md). One thread blocks in
/// `poll` on the inotify descriptor: no CPU while nothing changes. Without inotify (the
/// limit of watches reached) canaries still read every interval.
final class InotifyWatch: Sendable {
    /// The inotify descriptor, non-blocking.
    private let descriptor: Int32
    /// Per watch, the name whose changes wake nobody: the canary's own file, written every
    /// interval (another canary of this daemon may read that name as a peer's elsewhere).
    private let ignored = Locked([Int32: String]())
    /// Watches that saw a change since the last `take()`, and watches that went away (their
    /// directory removed or unmounted) and must be added again.
    private let changed = Locked(Changes())
    /// Wakes the service.
    private let wakeUp = WakeUp()
    /// The thread that blocks in `poll`.
    private let thread: BlockingThread

    /// `nil` when inotify is not available.
    init?() {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        do {
            self.thread = try BlockingThread()
        } catch {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    /// Watches `directory` itself (never through a symbolic link), where `own` is this
    /// canary's file; `nil` when it cannot.
    func watch(_ directory: String, own: String) -> Int32? {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)
        let watch = inotify_add_watch(self.descriptor, directory, mask)
        guard watch >= 0 else { return nil }
        self.ignored.withLock { $0[watch] = own }
        return watch
    }

    /// What the thread collects between two `take()`s.
    struct Changes: Sendable {
        var changed = Set<Int32>()
        var gone = Set<Int32>()
        var isEmpty: Bool { self.changed.isEmpty && self.gone.isEmpty }
    }

    /// The watches that saw changes, or went away, since the last call.
    func take() -> Changes {
        self.changed.withLock { changed in
            defer { changed = Changes() }
            return changed
        }
    }

    /// Returns at the next change (at once if one came since the last wait), or on cancellation.
    func wait() async {
        await self.wakeUp.wait()
    }

    /// Starts the thread that reads the descriptor.
    func start() {
        self.thread.start { [self] wake in self.run(wake: wake) }
    }

    /// Stops the thread and closes the descriptors.
    func stop() {
        self.thread.stopLater()
    }

    private func run(wake: WakeDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while wake.waitReadable(self.descriptor) {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(self.descriptor, $0.baseAddress!, $0.count) }
            guard count > 0 else { continue }
            let watches = self.parse(buffer, count: count)
            if !watches.isEmpty {
                self.changed.withLock {
                    $0.changed.formUnion(watches.changed)
                    $0.gone.formUnion(watches.gone)
                }
                self.wakeUp.signal()
            }
        }
        close(self.descriptor)
    }

    /// The watches of the events in `buffer` that matter: a peer's canary changed, or the
    /// watch itself went away.
    private func parse(_ buffer: [UInt8], count: Int) -> Changes {
        var watches = Changes()
        var offset = 0
        // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
        let header = 16
        buffer.withUnsafeBytes { raw in
            while offset + header <= count {
                let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_IGNORED) != 0 {
                    watches.gone.insert(watch)
                } else if name.hasPrefix("canary-"), name.hasSuffix(".json"), self.ignored.withLock({ $0[watch] }) != name {
                    watches.changed.insert(watch)
                }
                offset += header + length
            }
        }
        return watches
    }
}
