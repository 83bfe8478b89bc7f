import Foundation
import SyncmonSockets

/// An engine's side of the push socket: connects to the daemon's Unix stream socket and writes
/// event lines (or arbitrary bytes) on one connection until closed.
public final class EventSocketWriter: @unchecked Sendable {
    /// `nil` once closed.
    private var socket: BlockingSocket?
    public let path: String

    /// Connects to `path`; connecting and every write give up after five seconds.
    public init(path: String) throws {
        self.socket = try BlockingSocket.connect(to: .unix(path: path), timeout: .seconds(5))
        self.path = path
    }

    deinit { self.close() }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        guard let socket = self.socket else { throw TestSupportError("write on a closed connection") }
        try socket.send(bytes)
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws { try self.write(Array(text.utf8)) }

    /// Writes each line followed by `\n`.
    public func write(lines: [String]) throws {
        try self.write(lines.map { $0 + "\n" }.joined())
    }

    /// Writes one event line built from a JSON object (`v: 1` is added when missing).
    public func send(_ event: [String: Any]) throws {
        try self.write(lines: [try EventLine.json(event)])
    }

    /// Waits until the daemon closes its end (the daemon never writes, so readable means EOF
    /// or a reset); `false` when it is still open after `timeout`.
    public func waitForPeerClose(timeout: Duration = .seconds(5)) async -> Bool {
        await Polling.until(timeout: timeout, interval: .milliseconds(10)) {
            guard let socket = self.socket else { return true }
            guard socket.waitUntilReadable(milliseconds: 0) else { return false }
            var byte: [UInt8] = [0]
            return ((try? socket.receive(into: &byte, waiting: false)) ?? 0) == 0
        }
    }

    /// Closes the connection (the daemon sees EOF). Idempotent.
    public func close() {
        self.socket?.close()
        self.socket = nil
    }

    /// Connects, writes `lines`, and closes: a one-shot sender.
    public static func send(lines: [String], to path: String) throws {
        let writer = try EventSocketWriter(path: path)
        defer { writer.close() }
        try writer.write(lines: lines)
    }
}

/// Builds protocol v1 event lines.
public enum EventLine {
    /// The line for a JSON object; `v: 1` is added when missing.
    public static func json(_ object: [String: Any]) throws -> String {
        var object = object
        if object["v"] == nil { object["v"] = 1 }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// `{"v":1,"engine":…,"type":…,…}` with `fields` merged in.
    public static func make(_ engine: String, _ type: String, _ fields: [String: Any] = [:]) -> String {
        var object = fields
        object["engine"] = engine
        object["type"] = type
        // Only JSON-compatible values are passed by the tests; a failure here is a test bug.
        return (try? self.json(object)) ?? "{}"
    }
}
