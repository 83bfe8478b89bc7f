/// What one known key of a line held, read once and judged later against the event type.
///
/// A key only matters to the types whose payload names it, so the decoder records what it saw
/// and validation happens when the type is known (`type` may come last on the line).
enum FieldSlot<Value> {
    /// The key did not appear.
    case absent
    /// The key was `null`: absent for optional keys, invalid for required ones (docs/protocol.md#validation).
    case null
    case value(Value)
    /// The key held the wrong JSON type or an out-of-range value.
    case invalid

    /// The value of a required key, or a rejection naming it.
    @inline(__always)
    func required(_ field: StaticString) throws(DecodeFailure) -> Value {
        guard case .value(let value) = self else { throw DecodeFailure(.invalidField, field: field) }
        return value
    }

    /// The value of an optional key (`null` and absent are alike), or a rejection naming it.
    @inline(__always)
    func optional(_ field: StaticString) throws(DecodeFailure) -> Value? {
        switch self {
        case .absent, .null: return nil
        case .value(let value): return value
        case .invalid: throw DecodeFailure(.invalidField, field: field)
        }
    }
}

/// Thrown inside the decoder; becomes a `Rejection`.
struct DecodeFailure: Error {
    var rejection: Rejection

    init(_ reason: RejectionReason, field: StaticString? = nil) {
        self.rejection = Rejection(reason, field: field)
    }
}
