import ArgumentParser
import Foundation
import SyncmonCore
import SyncmonDaemon

/// `syncmon emit`: sends one event to the daemon's push socket, for shell scripts.
struct EmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit",
        abstract: "Send one event to the running daemon.",
        discussion: """
            Builds a protocol v1 event from TYPE and key=value pairs and writes it to the push socket. \
            Values parse as JSON where they can (available=false, modifications=3, \
            error='{"code":"quotaExceeded"}'), else as strings; dotted keys build objects \
            (error.code=quotaExceeded error.retryAfter=30). The time is now unless time= is given.

            Examples:
              syncmon emit --engine backup willSendChanges
              syncmon emit --engine backup networkStatus available=false
              syncmon emit --engine backup error phase=export error.code=quotaExceeded

            Exit status: 0 sent, 1 the daemon cannot be reached, 65 the event is invalid.
            """
    )

    @Option(name: .customLong("events-socket"), help: "The daemon's push socket (default: the daemon's default).")
    var eventsSocket: String?

    @Option(help: "The engine identifier (1-64 characters of [A-Za-z0-9._-]).")
    var engine: String

    @Option(help: "private (default), shared or public.")
    var database: String?

    @Argument(help: "The event type, e.g. willFetchChanges, accountStatus, heartbeat.")
    var type: String

    @Argument(help: "Payload fields as key=value.")
    var fields: [String] = []

    func run() throws {
        let line: String
        do {
            line = try Self.line(engine: self.engine, database: self.database, type: self.type, fields: self.fields, now: WallClock.now())
        } catch {
            printError("syncmon emit: \(error)")
            throw ExitCode(65)
        }
        let path = self.eventsSocket ?? DaemonConfiguration().eventsSocket
        do {
            try UnixSocketWriter.send(Array((line + "\n").utf8), to: path)
        } catch {
            printError("syncmon emit: \(error)")
            throw ExitCode(1)
        }
    }

    /// The event line, checked with the daemon's own decoder so a mistake is reported here.
    static func line(engine: String, database: String?, type: String, fields: [String], now: Timestamp) throws -> String {
        var object: [String: Any] = ["v": 1, "engine": engine, "type": type, "time": RFC3339.format(now)]
        if let database { object["database"] = database }
        for field in fields {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw ValidationError("expected key=value, got \(field)")
            }
            let key = String(field[..<equals])
            let text = String(field[field.index(after: equals)...])
            let value: Any = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) ?? text
            Self.set(value, at: key.split(separator: ".").map(String.init), in: &object)
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        let line = String(decoding: data, as: UTF8.self)
        if case .rejected(let rejection) = EventDecoder().decode(Array(line.utf8)) {
            throw ValidationError("the daemon would reject this event: \(rejection)")
        }
        return line
    }

    private static func set(_ value: Any, at path: [String], in object: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            object[first] = value
            return
        }
        var nested = object[first] as? [String: Any] ?? [:]
        self.set(value, at: Array(path.dropFirst()), in: &nested)
        object[first] = nested
    }
}

/// Writes bytes to a Unix stream socket and closes it.
enum UnixSocketWriter {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func send(_ bytes: [UInt8], to path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "cannot create a socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw Failure(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            throw Failure(description: "cannot reach the daemon at \(path): \(String(cString: strerror(errno))) (is 'syncmon daemon' running?)")
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write to \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
