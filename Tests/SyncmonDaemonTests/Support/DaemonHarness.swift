import Foundation
import SyncmonTestSupport
import Testing

/// Runs `body` against a fresh daemon in its own directory, with its own sockets and port; the
/// daemon is stopped (or killed) and the directory removed afterwards, whatever happens.
func withDaemon<Result>(
    arguments: [String] = [],
    environment: [String: String] = [:],
    logTarget: String? = "stderr",
    _ body: (DaemonProcess, TemporaryDirectory) async throws -> Result
) async throws -> Result {
    let directory = try TemporaryDirectory(prefix: "smd")
    defer { directory.remove() }
    let daemon = try await DaemonProcess.start(in: directory.path, arguments: arguments, environment: environment, logTarget: logTarget)
    do {
        let result = try await body(daemon, directory)
        await daemon.stop()
        return result
    } catch {
        await daemon.kill()
        throw TestSupportError("\(error)\n--- daemon stderr ---\n\(daemon.standardError)")
    }
}

/// The rows' field `key` of the row "engine/database" as a string.
func field(_ rows: [String: [String: Any]], _ pair: String, _ key: String) -> String? {
    rows[pair]?[key].map { "\($0)" }
}

/// The summary of "engine/database".
func summary(_ rows: [String: [String: Any]], _ pair: String) -> String? {
    rows[pair]?["summary"] as? String
}

/// The state of one phase of "engine/database".
func phaseState(_ rows: [String: [String: Any]], _ pair: String, _ phase: String) -> String? {
    (rows[pair]?[phase] as? [String: Any])?["state"] as? String
}

/// A unique engine name, so that journal queries and shared state never mix tests.
func uniqueEngine(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
}

/// A JSON value rendered canonically (sorted keys), to compare values read from two documents.
func canonicalJSON(_ value: Any?) -> String {
    guard let value, !(value is NSNull) else { return "null" }
    guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
}
