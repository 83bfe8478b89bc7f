import Logging

/// The stable journal `MESSAGE_ID` of each kind of entry syncmon writes.
///
/// The IDs were generated once with `systemd-id128 new` and must never change: alert rules and
/// `journalctl MESSAGE_ID=…` queries depend on them, and `deploy/catalog/syncmon.catalog` explains each one
/// (`journalctl -x`). Send one with the ``SyncmonMetadataKey/messageID`` metadata key.
public enum MessageID: String, Sendable, Hashable, CaseIterable {
    /// An engine's summary status changed (docs/protocol.md#summary).
    case summaryChanged = "0bbdc562cbe7450db945b00e912d3aaf"
    /// A stall detector fired (docs/protocol.md#stall-detectors).
    case stallRaised = "fa96c826969c42e1a0472e0a8517de3f"
    /// A stall's condition became false again.
    case stallCleared = "ac533e19d42c478cb2cc5ea9f1aabb52"
    /// Input events were rejected; rate-limited, one entry stands for a burst.
    case eventRejected = "d132b8025f1e4508ace2c3784f12a2cd"
    /// The daemon started and is ready.
    case daemonStarted = "faa2cb7bde4d4eeba0a9baa48102054d"
    /// The daemon is shutting down.
    case daemonStopping = "997321d517a44cf8b9abef7b5283d374"
    /// The configuration was reloaded (SIGHUP).
    case configurationReloaded = "991d08061985486b8884625270ecdb06"
    /// The state file could not be read and was set aside; the daemon started without it.
    case stateFileCorrupt = "bceac92ad8504e3daf78ab1784492cec"
    /// A subscribe source connected or disconnected.
    case sourceStateChanged = "8ebff011ab934ed0a6e0d1e945013b59"
    /// The host's own network view went offline or online, or cannot be followed.
    case hostNetworkChanged = "ebdfee27405042c89237526befd4352d"
    /// A canary's peer is late: files stopped crossing (docs/canary.md).
    case canaryLate = "a0b4ff62ea8f466095ed4a3395c1da7c"
    /// A late canary peer is on time again.
    case canaryRecovered = "e57074a4e60848dc91968eb8ee0f1fa0"
    /// A canary peer silent for 7 days was forgotten.
    case canaryForgotten = "f1228e6fd22746f1adce9e366b3d903e"
    /// A canary could not write its file or read a peer's, or skipped a bad peer file;
    /// rate-limited.
    case canaryError = "8739894d9ec54976aa8d2a7591f93e0f"
    /// A notification route delivered a notification (docs/notifications.md).
    case notificationSent = "acba9f8701064865af96bd2c56fb67bf"
    /// A notification route's delivery failed; it is tried again with backoff. Rate-limited.
    case notificationFailed = "b8f241037fa748d79cb90860e51a63e2"
    /// A notification route dropped pairs owed: they resolved or were forgotten before any
    /// delivery of their firing.
    case notificationDropped = "048772c3ef3c4541a645b38c1c3c3a9b"

    /// The ID as a metadata value, for `metadata: [SyncmonMetadataKey.messageID: id.metadataValue]`.
    public var metadataValue: Logger.MetadataValue { .string(self.rawValue) }
}
