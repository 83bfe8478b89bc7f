import Logging
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonLock
import SyncmonSystemd

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
package final class HostNetworkService: Service, Sendable {
    /// What the service tells its owner.
    package enum Update: Equatable, Sendable {
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
    /// The thread the reader blocks on (only when following the host), or why there is none.
    private let thread: Result<BlockingThread, SystemCallError>?

    package init(mode: HostNetworkMode, clock: any ServiceClock, logger: Logger, deliver: @escaping @Sendable (Update) -> Void) {
        self.mode = mode
        self.clock = clock
        self.logger = logger
        self.deliver = deliver
        self.thread = mode == .auto ? Result { () throws(SystemCallError) in try BlockingThread() } : nil
    }

    /// Takes the first view before the other services start, waiting at most `timeout` for the
    /// dumps (a few milliseconds on any host): pairs restored from the state file must not show
    /// `unknown` for a moment, and the first events must meet the host's real state.
    package func start(timeout: TimeSpan = .seconds(Int64(2))) {
        switch self.mode {
        case .off:
            return
        case .online, .offline:
            self.deliver(.view(HostNetworkView(isOnline: self.mode == .online)))
            return
        case .auto:
            break
        }
        if case .failure(let failure) = self.thread {
            self.deliver(.unavailable(failure.description))
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
                    self.logger.warning(
                        "host network dump unfinished in time; the view follows when it does",
                        metadata: [SyncmonMetadataKey.timeoutSeconds: "\(timeout.seconds)"]
                    )
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

    package func run() async throws {
        guard let reader = self.reader.withLock({ $0.take() }), case .success(let thread) = self.thread else {
            // Nothing to follow (off, a fixed view, or rtnetlink unavailable): wait to be stopped.
            if case .success(let thread) = self.thread { await thread.stop() }
            try? await gracefulShutdown()
            return
        }
        let deliver = self.deliver
        let failure: String? = await withGracefulShutdownHandler {
            await thread.run { wake in Self.follow(reader, wake: wake, deliver: deliver) } ?? nil
        } onGracefulShutdown: {
            thread.wake()
        }
        await thread.stop()
        if let failure {
            self.deliver(.unavailable(failure))
            try? await gracefulShutdown()
        }
    }

    /// The thread's loop: blocks until the kernel sends something or the thread is woken.
    /// Returns why it stopped following, or `nil` when woken.
    private static func follow(_ initial: HostNetworkReader, wake: WakeDescriptor, deliver: @Sendable (Update) -> Void) -> String? {
        var reader = initial
        defer { reader.socket.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: HostNetworkReader.bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            var descriptors = [pollfd(fd: reader.socket.descriptor, events: Int16(POLLIN), revents: 0)]
            switch wake.poll(&descriptors, timeout: -1) {
            case .woken, .timedOut:
                return nil
            case .failed(let failure):
                return failure.description
            case .ready:
                do {
                    try reader.readAvailable(buffer: buffer) { deliver(.view($0)) }
                } catch {
                    return error.description
                }
            }
        }
    }
}
