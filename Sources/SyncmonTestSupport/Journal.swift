import Foundation

/// The system journal, for tests that check what the daemon logged to journald.
public enum Journal {
    /// Makes sure a journald answers, running `scripts/start-journald.sh` (which starts one when
    /// the container has none); returns why not when it cannot.
    public static func ensureJournald() -> String? {
        let script = PackageRoot.path("scripts/start-journald.sh")
        guard FileManager.default.isExecutableFile(atPath: script) else { return "\(script) is missing" }
        guard ExternalCommand.find("journalctl") != nil else { return "journalctl is not installed" }
        do {
            let result = try ExternalCommand.runBlocking(script, [])
            guard result.status == 0 else {
                return "scripts/start-journald.sh exited \(result.status): \(result.errors.trimmingCharacters(in: .whitespacesAndNewlines))"
            }
            return nil
        } catch {
            return "cannot run scripts/start-journald.sh: \(error)"
        }
    }

    /// Entries matching every `FIELD=value` in `matches`, oldest first, each as field → value
    /// (binary values decoded as UTF-8; a repeated field keeps its first value).
    public static func entries(matching matches: [String: String]) async throws -> [[String: String]] {
        guard let journalctl = ExternalCommand.find("journalctl") else { throw TestSupportError("journalctl not found") }
        let result = try await ExternalCommand.run(
            journalctl,
            ["--no-pager", "--all", "--output=json"] + matches.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        )
        guard result.status == 0 else { throw TestSupportError("journalctl exited \(result.status): \(result.errors)") }
        return try result.output.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw TestSupportError("journalctl printed a line that is not a JSON object: \(line)")
            }
            return object.compactMapValues(Self.text)
        }
    }

    /// Polls until `condition` holds for the matching entries (journald writes asynchronously);
    /// returns the last entries read.
    public static func waitForEntries(
        matching matches: [String: String],
        timeout: Duration = .seconds(10),
        until condition: ([[String: String]]) -> Bool
    ) async throws -> [[String: String]] {
        var entries: [[String: String]] = []
        _ = try await Polling.until(timeout: timeout, interval: .milliseconds(100)) {
            entries = try await self.entries(matching: matches)
            return condition(entries)
        }
        return entries
    }

    private static func text(_ json: Any) -> String? {
        if let string = json as? String { return string }
        if let bytes = json as? [Int] { return String(decoding: bytes.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self) }
        if let array = json as? [Any] { return array.first.flatMap(Self.text) }
        return nil
    }
}
