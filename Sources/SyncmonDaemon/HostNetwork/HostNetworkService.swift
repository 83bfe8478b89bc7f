import Logging
import NIOPosix
import ServiceLifecycle
import SyncmonCore
import SyncmonLock

#if canImport(Glibc)
import Glibc
#endif

/// Follows the host's own network through rtnetlink (docs/operations.md, "Host network view"):
/// a dump of links and routes at start, then the kernel's notifications, read on a thread of its
/// own that blocks in poll(2) — no polling timer. Each new view goes to `deliver`, which hands it
/// to the state model and the journal.
///
/// When rtnetlink cannot be opened (a container, seccomp, `RestrictAddressFamilies=` without
/// `AF_NETLINK`), it delivers `unavailable` once and carries on: pairs keep `unknown`.
public final class HostNetworkService: Service, Sendable {
    /// What the service tells its owner.
    public enum Update: Equatable, Sendable {
        case view(HostNetworkView)
        /// The host cannot be followed; why.
        case unavailable(String)
    }

    private let mode: HostNetworkMode
    private let clock: any ServiceClock
    private let logger: Logger
    private let deliver: @Sendable (Update) -> Void
    /// The open reader between `start()` and `run()`.
    private let reader = Locked<HostNetworkReader?>(nil)
    /// A pipe whose write end wakes the reader thread for shutdown.
    private let wake: (read: Int32, write: Int32)?

    public init(mode: HostNetworkMode, clock: any ServiceClock, logger: Logger, deliver: @escaping @Sendable (Update) -> Void) {
        self.mode = mode
        self.clock = clock
        self.logger = logger
        self.deliver = deliver
        var descriptors: [Int32] = [-1, -1]
        if mode == .auto, pipe(&descriptors) == 0 {
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            self.wake = (descriptors[0], descriptors[1])
        } else {
            self.wake = nil
        }
    }

    /// Takes the first view before the other services start, waiting at most `timeout` for the
    /// dumps (a few milliseconds on any host): pairs restored from the state file must not show
    /// `unknown` for a moment, and the first events must meet the host's real state.
    public func start(timeout: TimeSpan = .seconds(Int64(2))) {
        switch self.mode {
        case .off:
            return
        case .online, .offline:
            self.deliver(.view(HostNetworkView(isOnline: self.mode == .online)))
            return
        case .auto:
            break
        }
        guard self.wake != nil else {
            self.deliver(.unavailable("pipe: \(String(cString: strerror(errno)))"))
            return
        }
        var reader: HostNetworkReader
        do {
            reader = try HostNetworkReader.open()
        } catch {
            self.deliver(.unavailable(error.description))
            return
        }
        let deadline = self.clock.monotonicTime().adding(timeout)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: HostNetworkReader.bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        do {
            while !reader.follower.isFollowing {
                let left = deadline.since(self.clock.monotonicTime())
                guard left > .zero, reader.waitReadable(milliseconds: Int32((left.microseconds + 999) / 1000)) else {
                    self.logger.warning("the host network dump did not finish in \(timeout.seconds) seconds; the view follows when it does")
                    break
                }
                try reader.readAvailable(buffer: buffer) { self.deliver(.view($0)) }
            }
        } catch {
            reader.socket.close()
            self.deliver(.unavailable(error.description))
            return
        }
        self.reader.withLock { $0 = reader }
    }

    public func run() async throws {
        defer { self.closeWake() }
        guard let reader = self.reader.withLock({ $0.take() }), let wake = self.wake else {
            // Nothing to follow (off, a fixed view, or rtnetlink unavailable): wait to be stopped.
            try? await gracefulShutdown()
            return
        }
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let deliver = self.deliver
        let failure: String? = await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                do {
                    return try await pool.runIfActive { Self.follow(reader, wake: wake.read, deliver: deliver) }
                } catch {
                    return nil
                }
            } onCancel: {
                self.signalWake()
            }
        } onGracefulShutdown: {
            self.signalWake()
        }
        try? await pool.shutdownGracefully()
        if let failure {
            self.deliver(.unavailable(failure))
            try? await gracefulShutdown()
        }
    }

    /// The thread's loop: blocks until the kernel sends something or the wake pipe is written.
    /// Returns why it stopped following, or `nil` when woken.
    private static func follow(_ initial: HostNetworkReader, wake: Int32, deliver: @Sendable (Update) -> Void) -> String? {
        var reader = initial
        defer { reader.socket.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: HostNetworkReader.bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while reader.socket.wait(orWake: wake) {
            do {
                try reader.readAvailable(buffer: buffer) { deliver(.view($0)) }
            } catch {
                return error.description
            }
        }
        return nil
    }

    private func signalWake() {
        guard let wake = self.wake else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private func closeWake() {
        guard let wake = self.wake else { return }
        close(wake.read)
        close(wake.write)
    }
}
