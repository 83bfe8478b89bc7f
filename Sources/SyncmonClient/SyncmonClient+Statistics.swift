import SyncmonCore

extension SyncmonClient {
    /// What a client has done so far: for tests, and for apps that export their own metrics.
    public struct Statistics: Sendable, Hashable, CustomStringConvertible {
        /// Events accepted into the queue.
        public var enqueued: Int
        /// Queued events written to the daemon's socket. Lines the client writes by itself
        /// (`engineStarted` or `runStarted`, automatic `heartbeat`s, `engineStopped` or
        /// `runEnded`) are not counted.
        public var sent: Int
        /// Events dropped because the queue was full.
        public var dropped: Int
        /// Events waiting in the queue now.
        public var queued: Int
        /// Connections established since the client was created.
        public var connections: Int
        /// Whether a connection is up now.
        public var connected: Bool

        /// Connections established after the first: how often the client reconnected.
        public var reconnects: Int { max(0, self.connections - 1) }

        public init(enqueued: Int, sent: Int, dropped: Int, queued: Int, connections: Int, connected: Bool) {
            self.enqueued = enqueued
            self.sent = sent
            self.dropped = dropped
            self.queued = queued
            self.connections = connections
            self.connected = connected
        }

        public var description: String {
            "enqueued \(self.enqueued), sent \(self.sent), dropped \(self.dropped), queued \(self.queued), "
                + "connections \(self.connections), \(self.connected ? "connected" : "not connected")"
        }
    }
}
