/// One `[rule NAME]` section: an expression over the message, an optional priority bound, and the
/// events a match emits.
public struct Rule: Sendable {
    /// The section's name, printed by `syncmon rules test` and in logs.
    public var name: String
    /// The line of the `[rule NAME]` header, for messages about the rule.
    public var line: Int
    public var pattern: RegexPattern
    /// Entries less severe than this are not tried (`nil`: every priority).
    public var priority: RulePriority?
    /// One or more events, emitted in this order.
    public var emits: [EmitTemplate]

    public init(name: String, line: Int, pattern: RegexPattern, priority: RulePriority?, emits: [EmitTemplate]) {
        self.name = name
        self.line = line
        self.pattern = pattern
        self.priority = priority
        self.emits = emits
    }
}
