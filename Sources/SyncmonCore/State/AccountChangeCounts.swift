/// `accountChange` events of one pair, by type (`syncmon_account_changes_total`), stored inline:
/// an array was an allocation of its own for every pair (issue 36's memory per pair).
public struct AccountChangeCounts: Equatable, Sendable {
    private var signIn: UInt64 = 0
    private var signOut: UInt64 = 0
    private var switchAccounts: UInt64 = 0

    public init() {}

    /// The count of `type`, also by its raw value (the order of `AccountChangeType.allCases`).
    public subscript(type: AccountChangeType) -> UInt64 {
        get {
            switch type {
            case .signIn: self.signIn
            case .signOut: self.signOut
            case .switchAccounts: self.switchAccounts
            }
        }
        set {
            switch type {
            case .signIn: self.signIn = newValue
            case .signOut: self.signOut = newValue
            case .switchAccounts: self.switchAccounts = newValue
            }
        }
    }

    public subscript(rawValue: Int) -> UInt64 {
        AccountChangeType(rawValue: rawValue).map { self[$0] } ?? 0
    }

    /// The counts in the order of `AccountChangeType.allCases`, as they are saved.
    public var counts: [UInt64] { AccountChangeType.allCases.map { self[$0] } }

    /// From saved counts in that order; a shorter list leaves the rest at zero.
    init(counts: [UInt64]) {
        for (type, count) in zip(AccountChangeType.allCases, counts) { self[type] = count }
    }
}
