import SyncmonCore

/// One failed save or delete in a `sent…Changes` event (docs/protocol.md#event-types `Failure`): an error plus the
/// zone and record it concerns.
///
/// Only the code and retry-after reach metrics and state; `zone`, `recordName` and `message`
/// are for the daemon's debug logs and never become labels.
public struct EngineFailure: Sendable, Hashable {
    /// The code: a `CKError.Code` case name or any other string; empty is sent as `unknown`.
    public var code: String
    /// The record zone, when known.
    public var zone: String?
    /// The record's name, when known.
    public var recordName: String?
    /// How long the server asked the engine to wait.
    public var retryAfter: Duration?
    /// A human-readable message, for logs only.
    public var message: String?

    public init(code: String, zone: String? = nil, recordName: String? = nil, retryAfter: Duration? = nil, message: String? = nil) {
        self.code = code
        self.zone = zone
        self.recordName = recordName
        self.retryAfter = retryAfter
        self.message = message
    }

    /// A failure with a code syncmon knows.
    public init(_ code: KnownErrorCode, zone: String? = nil, recordName: String? = nil, retryAfter: Duration? = nil, message: String? = nil) {
        self.init(code: code.description, zone: zone, recordName: recordName, retryAfter: retryAfter, message: message)
    }
}
