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
}
