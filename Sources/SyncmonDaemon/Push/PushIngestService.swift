import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonLock

#if canImport(Glibc)
import Glibc
import SyncmonSystemd
#endif

/// The push transport (docs/protocol.md#transports): a Unix stream socket engines connect to and write lines on.
///
/// Each connection frames and decodes on its own event loop and applies a whole read's worth
/// of events under the store's lock at once; a large read is decoded on two cores
/// (``DecodeHelper``), and still applied in the order of its lines. A bad line is counted and
/// logged (rate-limited), never a reason to close the connection. A connection closing without
/// `engineStopped` marks the engines that started on it as down.
package struct PushIngestService: Service {
    let path: String
    let store: MonitorStore
    let reporter: EventReporter
    let group: any EventLoopGroup
    let clock: any ServiceClock
    let configuration: DaemonConfiguration
    let readiness: ReadinessLatch
    let logger: Logger
    let listener: Listener

    /// Where the push socket comes from.
    package enum Listener: Sendable {
        /// A socket systemd passed in (socket activation): used as it is, never probed or removed.
        case activated(descriptor: Int32)
        /// The socket this daemon claimed (`EventsSocket.claim`): removed at exit while its own.
        case claimed(EventsSocket)
    }

    package init(
        configuration: DaemonConfiguration,
        store: MonitorStore,
        reporter: EventReporter,
        group: any EventLoopGroup,
        clock: any ServiceClock,
        readiness: ReadinessLatch,
        logger: Logger,
        listener: Listener
    ) {
        self.path = configuration.eventsSocket
        self.configuration = configuration
        self.store = store
        self.reporter = reporter
        self.group = group
        self.clock = clock
        self.readiness = readiness
        self.logger = logger
        self.listener = listener
    }

    package func run() async throws {
        let connections = ConnectionCounter(limit: self.configuration.maximumConnections)
        let store = self.store
        let reporter = self.reporter
        let logger = self.logger
        let clock = self.clock
        let lineLength = self.configuration.maximumLineLength
        let bootstrap = ServerBootstrap(group: self.group)
            .serverChannelOption(.backlog, value: EventsSocket.backlog)
            .childChannelInitializer { channel in
                guard let id = connections.open() else {
                    logger.warning(
                        "refusing push connection: \(connections.limit) connections already open",
                        metadata: [SyncmonMetadataKey.transport: "push"]
                    )
                    return channel.close()
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        IngestHandler(
                            connection: id, store: store, reporter: reporter, clock: clock, counter: connections, maximumLineLength: lineLength, logger: logger)
                    )
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // Large reads: a busy engine's lines arrive in 64-256 KiB chunks, one lock per chunk.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 4096, initial: 65_536, maximum: 262_144))
        let server: any Channel
        switch self.listener {
        case .activated(let descriptor):
            server = try await bootstrap.withBoundSocket(descriptor).get()
        case .claimed(let socket):
            server = try await bootstrap.withBoundSocket(socket.descriptor).get()
        }
        self.logger.info("listening for events", metadata: [SyncmonMetadataKey.eventsSocket: "\(self.path)"])
        self.readiness.arrive()
        try? await gracefulShutdown()
        // From here on the daemon itself closes the connections: that says nothing about the
        // engines behind them (docs/operations.md, "Stop").
        connections.stop()
        try? await server.close()
        if case .claimed(let socket) = self.listener { socket.removeIfOwn() }
    }
}

/// Hands out connection ids and enforces the connection limit (docs/configuration.md#limits); knows when the
/// daemon is stopping, so connections it closes itself do not mark their engines down.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let state = Locked<(open: Int, next: UInt64)>((0, 1))
    private let stopping = Atomic<Bool>(false)

    init(limit: Int) {
        self.limit = limit
    }

    /// A new connection's id, or `nil` at the limit.
    func open() -> UInt64? {
        self.state.withLock { state in
            guard state.open < self.limit else { return nil }
            state.open += 1
            state.next += 1
            return state.next
        }
    }

    func close() {
        self.state.withLock { $0.open -= 1 }
    }

    /// The daemon is shutting down: connections closing from now on are its doing.
    func stop() { self.stopping.store(true, ordering: .releasing) }

    var isStopping: Bool { self.stopping.load(ordering: .acquiring) }
}

/// One push connection: its bytes go to an `EventIngest` tied to the connection.
final class IngestHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let connection: UInt64
    private let store: MonitorStore
    private let reporter: EventReporter
    private let counter: ConnectionCounter
    private let ingest: EventIngest
    private let logger: Logger

    init(
        connection: UInt64, store: MonitorStore, reporter: EventReporter, clock: any ServiceClock, counter: ConnectionCounter, maximumLineLength: Int,
        logger: Logger
    ) {
        self.connection = connection
        self.logger = logger
        self.store = store
        self.reporter = reporter
        self.counter = counter
        self.ingest = EventIngest(
            store: store,
            reporter: reporter,
            transport: .push,
            clock: clock,
            connection: connection,
            maximumLineLength: maximumLineLength,
            splitsLargeReads: true
        )
    }

    func channelActive(context: ChannelHandlerContext) {
        // Who is writing, as the kernel says: checked against the engines' allowed-users and
        // allowed-groups. Taken on the channel's own loop before its first read is handled.
        if let provider = context.channel as? any SocketOptionProvider {
            let credentials: EventLoopFuture<KernelPeerCredentials> = provider.unsafeGetSocketOption(
                level: .socket,
                name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
            )
            credentials.assumeIsolated().whenSuccess { credentials in
                let peer = PeerCredentials(user: credentials.uid, group: credentials.gid, process: credentials.pid)
                self.ingest.peer = peer
                self.logger.debug(
                    "push connection \(self.connection) opened by \(peer)",
                    metadata: [
                        SyncmonMetadataKey.peerUID: "\(peer.user)", SyncmonMetadataKey.peerGID: "\(peer.group)", SyncmonMetadataKey.peerPID: "\(peer.process)",
                    ]
                )
            }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = self.unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { self.ingest.feed($0) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The engine closed its writing side: read what is left, then close ours.
        if event is ChannelEvent, case .inputClosed = event as! ChannelEvent {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.ingest.finish()
        // A connection the daemon closes as it stops says nothing: the engine has not gone down
        // (logging it would be a false engine_down error per engine at every restart), and the
        // tie stays for the next run's reconnect grace.
        if !self.counter.isStopping {
            let now = self.ingest.clock.wallTime()
            if self.ingest.total > 1 {
                self.reporter.report(self.store.connectionClosed(self.connection, now: now))
            } else {
                // A single line is a one-shot sender (`syncmon emit`): its engine is not tied to
                // it (docs/protocol.md, "Liveness"). The tie its `engineStarted` made is undone,
                // or the saved state would call the engine tied and the next run would take it
                // down after the reconnect grace.
                self.store.connectionReleased(self.connection, now: now)
            }
        }
        self.counter.close()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// `struct ucred` as `getsockopt(SO_PEERCRED)` fills it: Glibc shows it to C only under
/// `_GNU_SOURCE`, so the three fields are laid out here (pid, uid, gid, 12 bytes).
struct KernelPeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
