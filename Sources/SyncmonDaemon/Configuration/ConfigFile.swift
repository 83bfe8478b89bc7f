import SyncmonCore

/// The daemon's configuration file: `key = value` lines whose keys are the long flag names,
/// `[engine NAME]` sections with per-engine stall thresholds, and `[source NAME]` sections with
/// what a subscribe source needs besides its URL (`api-key-file`).
///
/// ```
/// # /etc/syncmon/syncmon.conf
/// listen = 127.0.0.1:9478
/// subscribe = unix:/run/notes/events.sock
/// not-syncing-after = 2m
///
/// [engine photos]
/// no-progress-after = 30m
/// no-recent-import-after = 6h
/// ```
///
/// Repeatable flags (`listen`, `subscribe`) may appear several times. Unknown keys are errors, so a
/// typo never silently leaves a default in place.
public enum ConfigFile {
    /// A line the parser could not accept.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(self.line): \(self.message)" }
    }

    /// Applies the file's settings on top of `base`.
    public static func apply(_ text: String, to base: DaemonConfiguration) throws(ParseError) -> DaemonConfiguration {
        var configuration = base
        var engine: String? = nil
        /// The `[source NAME]` section the lines belong to, if any.
        var source: String? = nil
        var listen: [String] = []
        var subscribe: [String] = []
        // "\r\n" is a single Character in Swift: split on it too, or a CRLF file would be one line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw ParseError(line: number, message: "unterminated section header") }
                let words = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
                guard words.count == 2, words[0] == "engine" || words[0] == "source" else {
                    throw ParseError(line: number, message: "sections are written [engine NAME] or [source NAME]")
                }
                let name = String(words[1])
                if words[0] == "source" {
                    guard SourceSpec.isValidName(name) else { throw ParseError(line: number, message: "invalid source name \(name)") }
                    (engine, source) = (nil, name)
                    configuration.sourceSettings[name] = configuration.sourceSettings[name] ?? SourceSettings()
                    continue
                }
                guard EngineName.parse(name) != nil else { throw ParseError(line: number, message: "invalid engine name \(name)") }
                (engine, source) = (name, nil)
                configuration.engineThresholds[name, default: [:]] = configuration.engineThresholds[name] ?? [:]
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw ParseError(line: number, message: "expected key = value") }
            let key = line[..<equals].trimmingWhitespace()
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }

            if let source {
                switch key {
                case "api-key-file":
                    guard value.hasPrefix("/") else { throw ParseError(line: number, message: "api-key-file: an absolute path") }
                    configuration.sourceSettings[source, default: SourceSettings()].apiKeyFile = value
                case "unit", "phase", "database", "rules":
                    var check = UnitTarget(unit: "check.service")
                    do throws(SourceSpec.ParseError) {
                        if key != "unit" { try check.set(key, value) { SourceSpec.ParseError(source: source, message: $0) } }
                    } catch {
                        throw ParseError(line: number, message: error.message)
                    }
                    configuration.sourceSettings[source, default: SourceSettings()].unitKeys[key] = value
                    if key == "unit" { subscribe.append("\(source)=unit:\(value)") }
                default:
                    throw ParseError(line: number, message: "\(key) cannot be set per source (only api-key-file, unit, phase, database and rules can)")
                }
                continue
            }
            if let reason = StallReason.allCases.first(where: { Self.flag(for: $0) == key }) {
                guard let span = DurationParser.parse(value) else {
                    throw ParseError(line: number, message: "\(key): not a duration: \(value)")
                }
                if let engine {
                    configuration.engineThresholds[engine, default: [:]][reason] = span
                } else {
                    configuration.thresholds[reason] = span
                }
                continue
            }
            if let engine, key == "allowed-users" || key == "allowed-groups" {
                let isUsers = key == "allowed-users"
                var policy = configuration.peerPolicies[engine] ?? PeerPolicy()
                for name in value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
                    guard let id = isUsers ? AccountLookup.user(String(name)) : AccountLookup.group(String(name)) else {
                        throw ParseError(line: number, message: "\(key): no \(isUsers ? "user" : "group") named \(name)")
                    }
                    if isUsers { policy.users.insert(id) } else { policy.groups.insert(id) }
                }
                configuration.peerPolicies[engine] = policy
                continue
            }
            guard engine == nil else {
                throw ParseError(
                    line: number,
                    message: "\(key) cannot be set per engine (only stall thresholds, allowed-users and allowed-groups can)"
                )
            }
            switch key {
            case "listen": listen.append(value)
            case "events-socket": configuration.eventsSocket = value
            case "subscribe": subscribe.append(value)
            case "state-dir": configuration.stateDirectory = value
            case "log-target": configuration.logTarget = value
            case "log-level": configuration.logLevel = value
            case "web-config-file": configuration.webConfigFile = value
            case "max-engines":
                guard let count = Int(value), count > 0 else { throw ParseError(line: number, message: "max-engines: not a positive number") }
                configuration.maximumPairs = count
            case "from-start":
                switch value {
                case "true", "yes", "1": configuration.subscribeFromStart = true
                case "false", "no", "0": configuration.subscribeFromStart = false
                default: throw ParseError(line: number, message: "from-start: expected true or false")
                }
            case "host-network":
                guard let mode = HostNetworkMode(rawValue: value) else {
                    throw ParseError(line: number, message: "host-network: expected auto, off, online or offline")
                }
                configuration.hostNetwork = mode
            case "max-connections":
                guard let count = Int(value), count > 0 else { throw ParseError(line: number, message: "max-connections: not a positive number") }
                configuration.maximumConnections = count
            default:
                throw ParseError(line: number, message: "unknown setting \(key)")
            }
        }
        if !listen.isEmpty { configuration.listen = listen }
        if !subscribe.isEmpty { configuration.subscribe = subscribe }
        return configuration
    }

    /// The flag (and file key) of a stall threshold: `not-syncing-after`, ….
    public static func flag(for reason: StallReason) -> String {
        reason.description.replacingUnderscores() + "-after"
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = self.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })!
        return String(String.UnicodeScalarView(scalars[start...end]))
    }

    fileprivate func replacingUnderscores() -> String {
        String(self.map { $0 == "_" ? "-" : $0 })
    }
}
