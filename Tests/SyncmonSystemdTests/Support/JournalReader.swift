import Foundation
import SyncmonTestSupport

/// Reads entries back from the journal with `journalctl -o json`, to check what journald actually stored.
enum JournalReader {
    /// Why the journal could not be read.
    enum ReadError: Error, CustomStringConvertible {
        /// journalctl is not installed.
        case journalctlMissing
        /// journalctl exited with a failure.
        case journalctlFailed(status: Int32, standardError: String)
        /// A line of journalctl's output was not a JSON object.
        case malformedLine(String)

        var description: String {
            switch self {
            case .journalctlMissing: "journalctl not found"
            case .journalctlFailed(let status, let standardError): "journalctl exited \(status): \(standardError)"
            case .malformedLine(let line): "journalctl printed a line that is not a JSON object: \(line)"
            }
        }
    }

    /// The entries whose field `matchField` is `matchValue`, each as field name → values (fields can repeat), with
    /// only `fields` (and journalctl's own `__` fields) in them.
    static func entries(matching matchField: String, _ matchValue: String, fields: [String]) async throws -> [[String: [String]]] {
        guard let journalctl = ExternalCommand.find("journalctl") else { throw ReadError.journalctlMissing }
        let output = try await ExternalCommand.run(
            journalctl,
            ["--no-pager", "--all", "--output=json", "--output-fields=\(fields.joined(separator: ","))", "\(matchField)=\(matchValue)"]
        )
        guard output.status == 0 else {
            throw ReadError.journalctlFailed(status: output.status, standardError: output.errors)
        }
        return try output.output.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ReadError.malformedLine(String(line))
            }
            return object.mapValues(Self.values)
        }
    }

    /// Polls until `count` matching entries are readable (journald writes asynchronously), or ten seconds pass.
    static func waitForEntries(
        count: Int,
        matching matchField: String,
        _ matchValue: String,
        fields: [String]
    ) async throws -> [[String: [String]]] {
        let enough = try await Polling.value(interval: .milliseconds(100)) {
            let entries = try await Self.entries(matching: matchField, matchValue, fields: fields)
            return entries.count >= count ? entries : nil
        }
        if let enough { return enough }
        return try await Self.entries(matching: matchField, matchValue, fields: fields)
    }

    /// One field's values from journalctl's JSON: a string, an array of bytes for values that are not printable
    /// text, or an array of either for a repeated field.
    private static func values(_ json: Any) -> [String] {
        if let string = json as? String {
            return [string]
        }
        if let bytes = json as? [Int] {
            return [String(decoding: bytes.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)]
        }
        if let array = json as? [Any] {
            return array.flatMap(Self.values)
        }
        return ["\(json)"]
    }
}
