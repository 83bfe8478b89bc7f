import NIOCore
import NIOPosix
import SyncmonCore
import SyncmonHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SyncmonClient {
    /// How a client reaches the daemon and how much it buffers.
    public struct Configuration: Sendable {
        /// The daemon's push socket (`syncmon daemon --events-socket`); see ``defaultSocketPath()``.
        public var socketPath: String
        /// The most events kept while the daemon is slow or unreachable; beyond it events are
        /// dropped and counted (``SyncmonClient/droppedEvents``).
        public var queueCapacity: Int
        /// The heartbeat interval promised in `engineStarted` (or `runStarted`): the daemon
        /// reports the engine down after three intervals without an event. `nil` promises
        /// nothing and sends no heartbeats (the engine is then judged by its connection only).
        public var heartbeatInterval: Duration?
        /// Whether the client sends the promised heartbeats by itself. Turn it off to send them
        /// with ``SyncmonClient/heartbeat()`` from the engine's own loop, so that they prove the
        /// engine (not only the process) is alive.
        public var automaticHeartbeats: Bool
        /// The first reconnect delay; it doubles with each failure up to ``maximumReconnectDelay``
        /// and is spread by jitter.
        public var minimumReconnectDelay: Duration
        /// The longest reconnect delay.
        public var maximumReconnectDelay: Duration
        /// How long a graceful stop may take to deliver what is queued, send `engineStopped` and
        /// see the daemon close the connection.
        public var shutdownTimeout: Duration
        /// The shortest time between two log lines about dropped events.
        public var dropLogInterval: Duration
        /// The `version` sent in `engineStarted` (the app's version), if any.
        public var version: String?
        /// The event loops the connection runs on.
        public var eventLoopGroup: any EventLoopGroup
        /// What the client's own opening and closing lines say: a long-running engine
        /// (`engineStarted` … `engineStopped`, the default) or one run of a batch job
        /// (`runStarted` … `runEnded`).
        public var lifecycle: Lifecycle

        /// How the engine lives, which decides the lines that open each connection and end a
        /// graceful stop (docs/protocol.md, "Batch runs").
        public enum Lifecycle: Sendable, Hashable {
            /// A service that runs until stopped: `engineStarted` on every connection,
            /// `engineStopped` at a graceful stop, after which the engine reads `stopped`.
            case engine
            /// One run of a job started from time to time (a backup, a mirror): `runStarted` on
            /// every connection, `runEnded` at a graceful stop. Between runs the job shows the
            /// outcome of its last run, never `stopped` or `engine_down`; a run that is killed
            /// (its connection drops without `runEnded`) is `engine_down`.
            case batchRun
        }

        public init(
            socketPath: String = Configuration.defaultSocketPath(),
            queueCapacity: Int = 10_000,
            heartbeatInterval: Duration? = .seconds(30),
            automaticHeartbeats: Bool = true,
            minimumReconnectDelay: Duration = .milliseconds(100),
            maximumReconnectDelay: Duration = .seconds(30),
            shutdownTimeout: Duration = .seconds(2),
            dropLogInterval: Duration = .seconds(5),
            version: String? = nil,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
            lifecycle: Lifecycle = .engine
        ) {
            self.socketPath = socketPath
            self.queueCapacity = queueCapacity
            self.heartbeatInterval = heartbeatInterval.flatMap { $0 > .zero ? $0 : nil }
            self.automaticHeartbeats = automaticHeartbeats
            self.minimumReconnectDelay = minimumReconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.shutdownTimeout = shutdownTimeout
            self.dropLogInterval = dropLogInterval
            self.version = version
            self.eventLoopGroup = eventLoopGroup
            self.lifecycle = lifecycle
        }

        /// Where clients find the daemon when not told: `$SYNCMON_EVENTS_SOCKET` when set;
        /// else `/run/syncmon/events.sock` as root or when it exists (a system daemon); else
        /// `$XDG_RUNTIME_DIR/syncmon/events.sock` (a user's daemon), or
        /// `/tmp/syncmon-UID/syncmon/events.sock` without `XDG_RUNTIME_DIR` — the daemon's own
        /// defaults (docs/protocol.md#transports).
        public static func defaultSocketPath() -> String {
            self.defaultSocketPath(
                environment: { name in getenv(name).map { String(cString: $0) } },
                isRoot: getuid() == 0,
                userID: getuid(),
                exists: { access($0, F_OK) == 0 }
            )
        }

        /// The rule of ``defaultSocketPath()`` over given facts (for tests).
        package static func defaultSocketPath(
            environment: (String) -> String?,
            isRoot: Bool,
            userID: UInt32,
            exists: (String) -> Bool
        ) -> String {
            DefaultPaths.clientEventsSocket(environment: environment, isRoot: isRoot, userID: userID, exists: exists)
        }
    }
}
