import SyncmonCore

/// A line one rule matched, with its captures: renders the rule's events for a pair.
public struct RuleMatch: Sendable {
    public var rule: Rule
    public var line: JournalLine
    /// Byte ranges of the groups in the message's UTF-8, group 0 first.
    var groups: [Range<Int>?]

    /// The text of the group called `name`, empty when it did not take part in the match.
    public func capture(_ name: String) -> String {
        guard let group = self.rule.pattern.group(named: name), group < self.groups.count,
            let range = self.groups[group]
        else { return "" }
        let utf8 = self.line.message.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return String(self.line.message[start..<end])
    }

    /// The events of the rule as protocol lines for (engine, database), at the entry's time.
    public func events(engine: String, database: String) -> [String] {
        self.rule.emits.map { template in
            template.render(engine: engine, database: database, time: self.line.time) { name in
                name.map(self.capture) ?? self.line.message
            }
        }
    }
}
