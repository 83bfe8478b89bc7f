import SyncmonCore

/// One journal entry as the rules see it: its `MESSAGE`, its priority and its time.
public struct JournalLine: Sendable {
    /// The message as UTF-8: journald stores a message with `\r` or other control characters as
    /// bytes, and a service may write anything; invalid sequences are replaced (U+FFFD) and
    /// control characters, `\r` included, are kept, so a rule sees what the service wrote.
    public var message: String
    public var priority: RulePriority
    /// When journald received it (`__REALTIME_TIMESTAMP`): the time of the events it emits.
    public var time: Timestamp

    public init(message: String, priority: RulePriority = .unstated, time: Timestamp) {
        self.message = message
        self.priority = priority
        self.time = time
    }

    /// A line from raw bytes, invalid UTF-8 replaced.
    public init<Bytes: Collection<UInt8>>(bytes: Bytes, priority: RulePriority = .unstated, time: Timestamp) {
        self.init(message: String(decoding: bytes, as: UTF8.self), priority: priority, time: time)
    }
}
