import SyncmonCore
import SyncmonRules
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// What a `unit:` source follows: `unit:UNIT[?phase=import|export|both&database=D&rules=PACK&user=NAME]`
/// (docs/systemd-units.md, docs/user-sessions.md), or the keys `unit`, `phase`, `database`, `rules` and `user` of a
/// `[source NAME]` section. Each value is parsed once, where it is read, into its type.
package struct UnitTarget: Sendable, Hashable {
    /// A `.service`, or a `.timer` whose service is followed.
    package var unit: String
    /// The phases a oneshot run counts as.
    package var phases: [Phase]
    package var database: Database
    /// A shipped pack's name or a rules file's absolute path.
    package var rules: String?
    /// The user whose user manager runs the unit (a system syncmon's `user = NAME`); `nil` for
    /// the manager syncmon itself runs under.
    package var user: String?

    /// The database of a unit's pair when none is given.
    package static let defaultDatabase = Database("default")!

    package init(
        unit: String, phases: [Phase] = [.import, .export], database: Database = UnitTarget.defaultDatabase, rules: String? = nil, user: String? = nil
    ) {
        self.unit = unit
        self.phases = phases
        self.database = database
        self.rules = rules
        self.user = user
    }

    /// A value of one key that cannot be used: what is accepted, and what was written.
    package struct KeyError: Error, Equatable {
        package var message: String
    }

    /// Parses what follows `unit:`; the error says what is wrong and how it is written.
    package static func parse(_ text: String) throws(SourceSpec.ParseError) -> UnitTarget {
        func fail(_ message: String) -> SourceSpec.ParseError { SourceSpec.ParseError(source: "unit:" + text, message: message) }
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var target: UnitTarget
        do throws(KeyError) {
            target = UnitTarget(unit: try Self.unitName(String(parts[0])))
        } catch {
            throw fail(error.message)
        }
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard keyValue.count == 2 else { throw fail("expected key=value in the query, got \(pair)") }
            do throws(KeyError) {
                switch keyValue[0] {
                case "phase": target.phases = try Self.phases(keyValue[1])
                case "database": target.database = try Self.database(keyValue[1])
                case "rules": target.rules = try Self.rules(keyValue[1])
                case "user": target.user = try Self.user(keyValue[1])
                default: throw KeyError(message: "unknown key \(keyValue[0]) (a unit: source takes phase, database, rules and user)")
                }
            } catch {
                throw fail(error.message)
            }
        }
        return target
    }

    /// A unit's name: a `.service` or a `.timer`, in systemd's unit name characters.
    static func unitName(_ text: String) throws(KeyError) -> String {
        guard text.hasSuffix(".service") || text.hasSuffix(".timer"),
            text.utf8.count <= 255,
            text.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ":_.\\@-".unicodeScalars.contains($0))
            })
        else { throw KeyError(message: "name a .service or a .timer (unit:unison-docs.service, unit:restic-backup.timer)") }
        return text
    }

    /// `phase`: `import`, `export` or `both`.
    package static func phases(_ text: String) throws(KeyError) -> [Phase] {
        switch text {
        case "import": [.import]
        case "export": [.export]
        case "both": [.import, .export]
        default: throw KeyError(message: "phase: import, export or both, not \(text)")
        }
    }

    /// `phase` as it is written.
    package static func phaseText(_ phases: [Phase]) -> String {
        phases == [.import] ? "import" : phases == [.export] ? "export" : "both"
    }

    /// `database`: a database name, as events name theirs.
    package static func database(_ text: String) throws(KeyError) -> Database {
        guard let database = Database(text) else { throw KeyError(message: "database: 1-64 characters of A-Z a-z 0-9 . _ -, not \(text)") }
        return database
    }

    /// `rules`: a shipped pack's name or a rules file's absolute path.
    package static func rules(_ text: String) throws(KeyError) -> String {
        guard ShippedPacks.isPath(text) || ShippedPacks.names.contains(text) else {
            throw KeyError(message: "rules: a shipped pack (\(ShippedPacks.names.joined(separator: ", "))) or an absolute path, not \(text)")
        }
        return text
    }

    /// `user`: a user this host knows (in /etc/passwd or NSS), whose user manager runs the unit.
    package static func user(_ text: String) throws(KeyError) -> String {
        guard !text.isEmpty, text.utf8.count <= 64, getpwnam(text) != nil else {
            throw KeyError(message: "user: a user this host knows, not \(text)")
        }
        return text
    }

    /// The manager that runs the unit: `user`'s, else the one syncmon runs under.
    package func manager(userID: UInt32 = getuid(), environment: [String: String]) throws(SourceError) -> SystemdManager {
        guard let name = self.user else { return .ambient(userID: userID, environment: environment) }
        guard let entry = getpwnam(name) else { throw SourceError("user \(name): no such user") }
        return .user(name: name, uid: entry.pointee.pw_uid)
    }

    /// The target as `unit:` takes it (without the scheme): the unit, then the keys that differ
    /// from their defaults.
    package var text: String {
        var keys: [String] = []
        if self.phases != [.import, .export] { keys.append("phase=" + Self.phaseText(self.phases)) }
        if self.database != Self.defaultDatabase { keys.append("database=\(self.database)") }
        if let rules = self.rules { keys.append("rules=" + rules) }
        if let user = self.user { keys.append("user=" + user) }
        return keys.isEmpty ? self.unit : self.unit + "?" + keys.joined(separator: "&")
    }

    /// The source, with its rules loaded and checked: a rules file with a problem stops the start.
    func makeSource(restarts: UnitRestartCounter, environment: [String: String]) throws(SourceError) -> UnitSource {
        var pack: UnitRules? = nil
        if let rules = self.rules {
            do {
                pack = try UnitRules(reference: rules)
            } catch {
                throw SourceError("rules \(error)")
            }
        }
        let manager = try self.manager(environment: environment)
        return UnitSource(unit: self.unit, database: self.database, phases: self.phases, rules: pack, manager: manager, restarts: restarts)
    }
}
