/// Why a line was rejected: the bounded `reason` label of `syncmon_events_rejected_total` (docs/metrics.md).
public enum RejectionReason: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Not a JSON object: bad syntax, truncated, invalid UTF-8, nested too deep.
    case malformed
    /// Longer than the line limit (64 KiB by default).
    case tooLarge
    /// `v` is an integer other than 1.
    case unsupportedVersion
    /// A key has the wrong type or value, or a required key is missing.
    case invalidField
    /// `type` names no event type of protocol version 1.
    case unknownType
    /// The line would start tracking one (engine, database) pair more than the limit allows.
    case engineLimit
    /// The engine's `allowed-users`/`allowed-groups` do not include the process that wrote it.
    case forbidden

    /// The metric label spelling.
    public var description: String {
        switch self {
        case .malformed: "malformed"
        case .tooLarge: "too_large"
        case .unsupportedVersion: "unsupported_version"
        case .invalidField: "invalid_field"
        case .unknownType: "unknown_type"
        case .engineLimit: "engine_limit"
        case .forbidden: "forbidden"
        }
    }
}

/// A rejected line: the counted reason and, for the log line, the key at fault.
public struct Rejection: Hashable, Sendable, CustomStringConvertible {
    public var reason: RejectionReason
    /// The key that failed validation, when one did (a static string: rejecting allocates nothing).
    public var field: StaticString?

    public init(_ reason: RejectionReason, field: StaticString? = nil) {
        self.reason = reason
        self.field = field
    }

    public static func == (lhs: Rejection, rhs: Rejection) -> Bool {
        lhs.reason == rhs.reason && lhs.field?.description == rhs.field?.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.reason)
        hasher.combine(self.field?.description)
    }

    public var description: String {
        if let field = self.field { return "\(self.reason) (\(field))" }
        return self.reason.description
    }
}

/// The outcome of decoding one line.
public enum DecodeResult: Sendable {
    case event(Event)
    /// A blank line: skipped, not a rejection (docs/protocol.md#validation).
    case blank
    case rejected(Rejection)
}

/// What decoding one line into an event's storage found (``EventDecoder/decode(_:into:)``).
public enum DecodeOutcome: Equatable, Sendable {
    /// The event was written.
    case event
    /// A blank line: skipped, not a rejection (docs/protocol.md#validation).
    case blank
    case rejected(Rejection)
}
