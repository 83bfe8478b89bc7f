import ArgumentParser
import SyncmonCore
import SyncmonHost
import SyncmonSockets

#if canImport(Glibc)
import Glibc
#endif

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

    @OptionGroup
    var target: EngineTargetOptions

    @Argument(help: "The event type, e.g. willFetchChanges, accountStatus, heartbeat.")
    var type: String

    @Argument(help: "Payload fields as key=value.")
    var fields: [String] = []

    func run() throws {
        let line: String
        do {
            line = try Self.line(engine: self.target.engine, database: self.target.database, type: self.type, fields: self.fields, now: WallClock.now())
        } catch {
            printError("syncmon emit: \(error)")
            throw ExitCode(65)
        }
        let path = self.target.socketPath
        do {
            try UnixSocketWriter.send(Array((line + "\n").utf8), to: path)
        } catch {
            printError("syncmon emit: \(error)")
            throw ExitCode(1)
        }
    }

    /// The event line, checked with the daemon's own decoder so a mistake is reported here.
    static func line(engine: String, database: String?, type: String, fields: [String], now: Timestamp) throws -> String {
        var object = JSONObject()
        object.set(["v"], "1")
        object.set(["engine"], JSONText.quoted(engine))
        object.set(["type"], JSONText.quoted(type))
        object.set(["time"], JSONText.quoted(RFC3339.format(now)))
        if let database { object.set(["database"], JSONText.quoted(database)) }
        for field in fields {
            guard let equals = field.firstIndex(of: "="), equals != field.startIndex else {
                throw ValidationError("expected key=value, got \(field)")
            }
            let key = String(field[..<equals])
            let text = String(field[field.index(after: equals)...])
            // JSON where the value parses as JSON (numbers, booleans, objects), a string otherwise.
            object.set(key.split(separator: ".").map(String.init), JSONText.isValue(text) ? text : JSONText.quoted(text))
        }
        let line = object.rendered
        if case .rejected(let rejection) = EventDecoder().decode(Array(line.utf8)) {
            throw ValidationError("the daemon would reject this event: \(EmitRejection.explain(rejection, type: type, object: object))")
        }
        return line
    }
}

/// A JSON object built from dotted keys, whose leaves are already JSON text; keys keep the
/// order they were first set in.
struct JSONObject {
    private enum Node {
        case value(String)
        case object(JSONObject)
    }

    private var keys: [String] = []
    private var nodes: [String: Node] = [:]

    mutating func set(_ path: [String], _ json: String) {
        guard let first = path.first else { return }
        if self.nodes[first] == nil { self.keys.append(first) }
        if path.count == 1 {
            self.nodes[first] = .value(json)
            return
        }
        var nested: JSONObject
        if case .object(let existing) = self.nodes[first] { nested = existing } else { nested = JSONObject() }
        nested.set(Array(path.dropFirst()), json)
        self.nodes[first] = .object(nested)
    }

    /// The JSON text of `key`, at the top level or in a nested object (the decoder names a
    /// failing key without its path), as given on the command line.
    func json(at key: String) -> String? {
        if let node = self.nodes[key], case .value(let json) = node { return json }
        for name in self.keys {
            if case .object(let nested) = self.nodes[name], let json = nested.json(at: key) { return json }
        }
        return nil
    }

    var rendered: String {
        let members = self.keys.map { key -> String in
            switch self.nodes[key]! {
            case .value(let json): return JSONText.quoted(key) + ":" + json
            case .object(let object): return JSONText.quoted(key) + ":" + object.rendered
            }
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}

/// Writes bytes to a Unix stream socket and closes it.
enum UnixSocketWriter {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func send(_ bytes: [UInt8], to path: String) throws {
        do {
            let connection = try BlockingSocket.connect(to: .unix(path: path))
            defer { connection.close() }
            try connection.send(bytes)
        } catch let error as SocketError {
            throw Failure(description: Self.message(error, path: path))
        }
    }

    /// What went wrong, in the words of someone who ran `syncmon emit`.
    static func message(_ error: SocketError, path: String) -> String {
        switch error.operation {
        case .address: PushSocketAdvice.tooLong(path)
        case .socket: "cannot create a socket: \(SystemErrorText.words(error.code))"
        case .connect: PushSocketAdvice.cannotReach(path, errno: error.code)
        default: "cannot write to the daemon at \(path): \(SystemErrorText.words(error.code)) (did the daemon stop meanwhile?)"
        }
    }
}
