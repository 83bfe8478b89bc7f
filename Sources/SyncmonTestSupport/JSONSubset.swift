import Foundation

/// Compares JSON values as the fixtures specify: objects as subsets (every expected key must be
/// present and match), arrays and scalars exactly.
public enum JSONSubset {
    /// Describes every difference; empty when `actual` matches `expected`.
    public static func mismatches(expected: Any, actual: Any?, path: String = "$") -> [String] {
        switch expected {
        case let object as [String: Any]:
            guard let actualObject = actual as? [String: Any] else { return ["\(path): expected an object, got \(render(actual))"] }
            return object.keys.sorted().flatMap { key -> [String] in
                guard let value = actualObject[key] else { return ["\(path).\(key): missing"] }
                return mismatches(expected: object[key]!, actual: value, path: "\(path).\(key)")
            }
        case let array as [Any]:
            guard let actualArray = actual as? [Any], actualArray.count == array.count else {
                return ["\(path): expected \(render(array)), got \(render(actual))"]
            }
            return zip(array, actualArray).enumerated().flatMap { index, pair in
                exact(pair.0, pair.1, path: "\(path)[\(index)]")
            }
        default:
            return exact(expected, actual, path: path)
        }
    }

    /// Arrays compare element by element exactly (objects inside them too).
    private static func exact(_ expected: Any, _ actual: Any?, path: String) -> [String] {
        if let object = expected as? [String: Any], let actualObject = actual as? [String: Any], object.count == actualObject.count {
            return mismatches(expected: object, actual: actualObject, path: path)
        }
        if let array = expected as? [Any] { return mismatches(expected: array, actual: actual, path: path) }
        return render(expected) == render(actual) ? [] : ["\(path): expected \(render(expected)), got \(render(actual))"]
    }

    static func render(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "null" }
        if let string = value as? String { return "\"\(string)\"" }
        if let number = value as? NSNumber {
            // JSONSerialization reads `true` as an NSNumber; keep booleans apart from 1.
            if String(describing: type(of: number)).contains("Boolean") { return number.boolValue ? "true" : "false" }
            return number.stringValue
        }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(value)"
    }
}
