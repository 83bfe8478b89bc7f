import SyncmonCore

/// Why the daemon would reject the event `syncmon emit` built, naming the field and the value
/// given, and what would be accepted: `unknown event type "heartbaet" (field type); did you
/// mean heartbeat?`, not the bare counter label `unknown_type (type)`.
enum EmitRejection {
    static func explain(_ rejection: Rejection, type: String, object: JSONObject) -> String {
        let field = rejection.field.map { "\($0)" }
        switch rejection.reason {
        case .unknownType:
            return "unknown event type \(JSONText.quoted(type)) (field type); " + EventType.suggestion(for: type)
        case .invalidField, .malformed:
            guard let field else { return "a field of the \(type) event is missing or has the wrong type (\(rejection.reason))" }
            guard let value = object.json(at: field) else {
                return "the \(type) event needs the field \(field) (give it as \(field)=VALUE)"
            }
            return "invalid value \(value) for the field \(field) of the \(type) event (\(rejection.reason))"
        default:
            return field.map { "\(rejection.reason) (field \($0))" } ?? "\(rejection.reason)"
        }
    }
}
