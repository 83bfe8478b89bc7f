import SyncmonCore

/// One pair as the pages show it: its status row, when each phase last succeeded (which the row
/// does not carry once a later cycle failed or runs) and its history of health changes.
public struct PagePair: Sendable {
    public var row: StatusRow
    public var lastImport: Timestamp?
    public var lastExport: Timestamp?
    /// Oldest first, as ``PairHistory`` keeps them.
    public var changes: [HealthChange]

    public init(row: StatusRow, lastImport: Timestamp? = nil, lastExport: Timestamp? = nil, changes: [HealthChange] = []) {
        self.row = row
        self.lastImport = lastImport
        self.lastExport = lastExport
        self.changes = changes
    }

    public var key: PairKey { self.row.key }
}
