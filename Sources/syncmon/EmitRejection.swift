import SyncmonCore

/// Why the daemon would reject the event `syncmon emit` built, naming the field and the value
/// given, and what would be accepted: `unknown event type "heartbaet" (field type); did you
/// mean heartbeat?`, not the bare counter label `unknown_type (type)`.
enum EmitRejection {
    static func explain(_ rejection: Rejection, type: String, object: JSONObject) -> String {
        let field = rejection.field.map { "\($0)" }
        switch rejection.reason {
        case .unknownType:
            return "unknown event type \(JSONText.quoted(type)) (field type); " + Self.suggestion(for: type)
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

    /// "did you mean X?" for a near miss, else the list of types.
    static func suggestion(for type: String) -> String {
        let names = EventType.allCases.map(\.description)
        let nearest = names.map { (name: $0, distance: Self.distance($0.lowercased(), type.lowercased())) }.min { $0.distance < $1.distance }
        if let nearest, nearest.distance <= max(2, type.count / 4) { return "did you mean \(nearest.name)?" }
        return "the types are " + names.joined(separator: ", ")
    }

    /// Levenshtein distance: edits (insert, delete, replace) from `a` to `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
