/// The rules of one file or shipped pack, tried in order: the first rule that matches wins.
public struct RulePack: Sendable {
    /// Where the rules came from: a shipped pack's name or a file's path.
    public var origin: String
    public var rules: [Rule]

    /// What one line came to.
    public struct Evaluation: Sendable {
        /// The first rule that matched, if any.
        public var match: RuleMatch?
        /// Rules whose match was stopped by the match or depth limit on this line: counted by the
        /// caller, taken as no match, so a hostile line costs a bounded time and no more.
        public var limitExceeded: Int
    }

    public init(origin: String, rules: [Rule]) {
        self.origin = origin
        self.rules = rules
    }

    /// Tries the rules in order on `line`.
    public func evaluate(_ line: JournalLine) -> Evaluation {
        var limitExceeded = 0
        var message = line.message
        let match = message.withUTF8 { subject -> RuleMatch? in
            for rule in self.rules {
                if let bound = rule.priority, line.priority > bound { continue }
                switch rule.pattern.match(subject) {
                case .noMatch: continue
                case .limitExceeded: limitExceeded += 1
                case .matched(let groups): return RuleMatch(rule: rule, line: line, groups: groups)
                }
            }
            return nil
        }
        return Evaluation(match: match, limitExceeded: limitExceeded)
    }
}
