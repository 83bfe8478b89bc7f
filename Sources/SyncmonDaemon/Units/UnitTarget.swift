import SyncmonCore
import SyncmonRules

/// What a `unit:` source follows: `unit:UNIT[?phase=import|export|both&database=D&rules=PACK]`
/// (SPEC §10.3), or the keys `unit`, `phase`, `database` and `rules` of a `[source NAME]` section.
public struct UnitTarget: Sendable, Equatable {
    /// A `.service`, or a `.timer` whose service is followed.
    public var unit: String
    /// The phases a oneshot run counts as.
    public var phases: [Phase]
    public var database: String
    /// A shipped pack's name or a rules file's absolute path.
    public var rules: String?

    public init(unit: String, phases: [Phase] = [.import, .export], database: String = "default", rules: String? = nil) {
        self.unit = unit
        self.phases = phases
        self.database = database
        self.rules = rules
    }

    /// Parses what follows `unit:`; the error says what is wrong and how it is written.
    public static func parse(_ text: String) throws(SourceSpec.ParseError) -> UnitTarget {
        func fail(_ message: String) -> SourceSpec.ParseError { SourceSpec.ParseError(source: "unit:" + text, message: message) }
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var target = UnitTarget(unit: String(parts[0]))
        guard target.unit.hasSuffix(".service") || target.unit.hasSuffix(".timer"),
            target.unit.utf8.count <= 255,
            target.unit.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ":_.\\@-".unicodeScalars.contains($0))
            })
        else { throw fail("name a .service or a .timer (unit:unison-docs.service, unit:restic-backup.timer)") }
        for pair in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard keyValue.count == 2 else { throw fail("expected key=value in the query, got \(pair)") }
            try target.set(keyValue[0], keyValue[1], fail: fail)
        }
        return target
    }

    /// Sets one key (`phase`, `database`, `rules`), as the query or a `[source NAME]` section gives it.
    public mutating func set(_ key: String, _ value: String, fail: (String) -> SourceSpec.ParseError) throws(SourceSpec.ParseError) {
        switch key {
        case "phase":
            switch value {
            case "import": self.phases = [.import]
            case "export": self.phases = [.export]
            case "both": self.phases = [.import, .export]
            default: throw fail("phase: import, export or both, not \(value)")
            }
        case "database":
            guard Database(value) != nil else { throw fail("database: 1-64 characters of A-Z a-z 0-9 . _ -, not \(value)") }
            self.database = value
        case "rules":
            guard ShippedPacks.isPath(value) || ShippedPacks.names.contains(value) else {
                throw fail("rules: a shipped pack (\(ShippedPacks.names.joined(separator: ", "))) or an absolute path, not \(value)")
            }
            self.rules = value
        default:
            throw fail("unknown key \(key) (a unit: source takes phase, database and rules)")
        }
    }

    /// The source, with its rules loaded and checked: a rules file with a problem stops the start.
    func makeSource() throws(DaemonError) -> UnitSource {
        var pack: UnitRules? = nil
        if let rules = self.rules {
            do {
                pack = try UnitRules(reference: rules)
            } catch {
                throw DaemonError.configuration("rules \(error)")
            }
        }
        return UnitSource(unit: self.unit, database: Database(self.database) ?? .private, phases: self.phases, rules: pack)
    }
}
