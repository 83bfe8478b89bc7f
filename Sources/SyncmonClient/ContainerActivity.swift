import SyncmonCore

/// An NSPersistentCloudKitContainer-style operation (`containerEvent`): posted when it starts and
/// again, with ``ended``, when it ends.
///
/// ``SyncmonClient/containerEventStarted(_:id:)`` returns one and
/// ``SyncmonClient/containerEventEnded(_:succeeded:error:)`` reports its end.
public struct ContainerActivity: Sendable, Hashable {
    /// `setup`, `import` or `export`.
    public var kind: Phase
    /// Pairs the start and the end (NSPersistentCloudKitContainer.Event's `identifier`).
    public var id: String
    /// When it started.
    public var started: Timestamp
    /// When it ended; `nil` on the start notification.
    public var ended: Timestamp?
    /// Whether it succeeded; on an end without it, "no error" means success (docs/protocol.md#containerevent).
    public var succeeded: Bool?
    /// Why it failed.
    public var error: EngineError?

    public init(kind: Phase, id: String, started: Timestamp, ended: Timestamp? = nil, succeeded: Bool? = nil, error: EngineError? = nil) {
        self.kind = kind
        self.id = id
        self.started = started
        self.ended = ended
        self.succeeded = succeeded
        self.error = error
    }

    /// This activity's end notification.
    public func ending(at time: Timestamp, succeeded: Bool, error: EngineError? = nil) -> ContainerActivity {
        var copy = self
        // An end never precedes its start (the daemon rejects that line).
        copy.ended = max(time, self.started)
        copy.succeeded = succeeded
        copy.error = error
        return copy
    }
}
