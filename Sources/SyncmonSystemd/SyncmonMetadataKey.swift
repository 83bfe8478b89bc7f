/// The swift-log metadata keys whose journal fields docs/operations.md#logs-and-journald and the journal catalog name.
///
/// Any key works (``JournalFieldName/init(metadataKey:)`` maps it), but these are the ones dashboards, queries and
/// the catalog's `@SYNCMON_…@` substitutions rely on, so code should use the constants rather than spell them.
public enum SyncmonMetadataKey {
    /// The stable kind of the entry, a ``MessageID``; sent as `MESSAGE_ID`.
    public static let messageID = "message_id"
    /// The engine identifier; sent as `SYNCMON_ENGINE`.
    public static let engine = "syncmon.engine"
    /// The database (`private`, `shared`, `public`); sent as `SYNCMON_DATABASE`.
    public static let database = "syncmon.database"
    /// The summary status after the change; sent as `SYNCMON_SUMMARY`.
    public static let summary = "syncmon.summary"
    /// The summary status before the change; sent as `SYNCMON_PREVIOUS_SUMMARY`.
    public static let previousSummary = "syncmon.previous_summary"
    /// The phase concerned (`setup`, `import`, `export`); sent as `SYNCMON_PHASE`.
    public static let phase = "syncmon.phase"
    /// The stall detector (`not_syncing`, `no_progress`, …); sent as `SYNCMON_STALL_REASON`.
    public static let stallReason = "syncmon.stall_reason"
    /// The engine's error code (`quotaExceeded`, …); sent as `SYNCMON_ERROR_CODE`.
    public static let errorCode = "syncmon.error_code"
    /// The failure's message in the engine's own words (cut to 256 bytes, control characters
    /// escaped); sent as `SYNCMON_ERROR_MESSAGE`. Never a metric label.
    public static let errorMessage = "syncmon.error_message"
    /// A subscribe source's configured name; sent as `SYNCMON_SOURCE`.
    public static let source = "syncmon.source"
    /// A subscribe source's new state (`connected`, `disconnected`); sent as `SYNCMON_SOURCE_STATE`.
    public static let sourceState = "syncmon.source_state"
    /// The transport an event came in on (`push`, `subscribe`, `replay`); sent as `SYNCMON_TRANSPORT`.
    public static let transport = "syncmon.transport"
    /// Why events were rejected (the `syncmon_events_rejected_total` reasons); sent as `SYNCMON_REJECT_REASON`.
    public static let rejectReason = "syncmon.reject_reason"
    /// How many rejections one rate-limited entry stands for; sent as `SYNCMON_REJECTED_COUNT`.
    public static let rejectedCount = "syncmon.rejected_count"
    /// The daemon's version; sent as `SYNCMON_VERSION`.
    public static let version = "syncmon.version"
    /// The configuration file read; sent as `SYNCMON_CONFIG_PATH`.
    public static let configPath = "syncmon.config_path"
    /// The state file concerned; sent as `SYNCMON_STATE_PATH`.
    public static let statePath = "syncmon.state_path"
    /// Where a corrupt state file was moved; sent as `SYNCMON_SET_ASIDE_PATH`.
    public static let setAsidePath = "syncmon.set_aside_path"
    /// The host's own network view (`online`, `offline`, `unavailable`); sent as `SYNCMON_HOST_NETWORK`.
    public static let hostNetwork = "syncmon.host_network"
    /// The interfaces the host's default routes run through, comma-separated; sent as `SYNCMON_INTERFACES`.
    public static let interfaces = "syncmon.interfaces"
    /// Why something failed; sent as `SYNCMON_REASON`.
    public static let reason = "syncmon.reason"
    /// A canary's directory; sent as `SYNCMON_CANARY_PATH`.
    public static let canaryPath = "syncmon.canary_path"
    /// The peer host a canary entry is about; sent as `SYNCMON_CANARY_PEER`.
    public static let canaryPeer = "syncmon.canary_peer"
    /// Which canary rule is late (docs/canary.md); sent as `SYNCMON_CANARY_RULE`.
    public static let canaryRule = "syncmon.canary_rule"
    /// Why a canary could not be written or read; sent as `SYNCMON_CANARY_ERROR`.
    public static let canaryError = "syncmon.canary_error"
    /// The web configuration file in use; sent as `SYNCMON_WEB_CONFIG`.
    public static let webConfig = "syncmon.web_config"
    /// The log level in use; sent as `SYNCMON_LOG_LEVEL`.
    public static let logLevel = "syncmon.log_level"
    /// A push connection's peer user id (`SO_PEERCRED`); sent as `SYNCMON_PEER_UID`.
    public static let peerUID = "syncmon.peer_uid"
    /// A push connection's peer group id; sent as `SYNCMON_PEER_GID`.
    public static let peerGID = "syncmon.peer_gid"
    /// A push connection's peer process id; sent as `SYNCMON_PEER_PID`.
    public static let peerPID = "syncmon.peer_pid"
    /// The event field a rejection is about; sent as `SYNCMON_FIELD`.
    public static let field = "syncmon.field"
    /// How many pairs a saved state held; sent as `SYNCMON_PAIRS`.
    public static let pairs = "syncmon.pairs"
    /// How many saves failed in a row; sent as `SYNCMON_FAILURES`.
    public static let failures = "syncmon.failures"
    /// The push socket listened on; sent as `SYNCMON_EVENTS_SOCKET`.
    public static let eventsSocket = "syncmon.events_socket"
    /// The HTTP address listened on; sent as `SYNCMON_LISTEN`.
    public static let listen = "syncmon.listen"
    /// Whether HTTP basic auth is on; sent as `SYNCMON_BASIC_AUTH`.
    public static let basicAuth = "syncmon.basic_auth"
    /// A notification route's name (`[notify NAME]`); sent as `SYNCMON_ROUTE`.
    public static let route = "syncmon.route"
    /// A notification's event (`firing`, `resolved`, `test`); sent as `SYNCMON_EVENT`.
    public static let notificationEvent = "syncmon.event"
    /// How many pairs a notification covers; sent as `SYNCMON_PAIRS`.
    public static let notificationPairs = "syncmon.pairs"
    /// Where a source reads from (its URL, socket or unit, and what it answered); sent as `SYNCMON_ENDPOINT`.
    public static let endpoint = "syncmon.endpoint"
    /// The file a `file:` source reads (or the rotated one it finishes); sent as `SYNCMON_SOURCE_PATH`.
    public static let sourcePath = "syncmon.source_path"
    /// In how many seconds a source tries again; sent as `SYNCMON_RETRY_SECONDS`.
    public static let retrySeconds = "syncmon.retry_seconds"
    /// What a source noticed about its engine, in words (Syncthing restarted, events lost); sent as `SYNCMON_NOTICE`.
    public static let notice = "syncmon.notice"
    /// How many entries like this one were skipped since the last (rate-limited entries); sent as `SYNCMON_SKIPPED`.
    public static let skipped = "syncmon.skipped"
    /// How long a wait lasted before it was given up, in seconds; sent as `SYNCMON_TIMEOUT_SECONDS`.
    public static let timeoutSeconds = "syncmon.timeout_seconds"
    /// How many notification deliveries are under way; sent as `SYNCMON_DELIVERIES`.
    public static let notificationDeliveries = "syncmon.deliveries"
}
