import SyncmonCore

/// An error as an event carries it (docs/protocol.md#event-types `Error`): a CKError case name, an optional message
/// for the daemon's logs, and the server's retry-after.
///
/// ```swift
/// EngineError(.requestRateLimited, retryAfter: .seconds(30))
/// EngineError(code: "myAppError", message: "schema mismatch")
/// ```
public struct EngineError: Sendable, Hashable {
    /// The code: a `CKError.Code` case name (`networkFailure`, `quotaExceeded`, …) or any other
    /// string (grouped as `other` in metric labels). An empty code is sent as `unknown`.
    public var code: String
    /// A human-readable message, for logs only.
    public var message: String?
    /// How long the server asked the engine to wait; sets the engine's "throttled until".
    public var retryAfter: Duration?

    public init(code: String, message: String? = nil, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// An error with a code syncmon knows.
    public init(_ code: KnownErrorCode, message: String? = nil, retryAfter: Duration? = nil) {
        self.init(code: code.description, message: message, retryAfter: retryAfter)
    }
}
