/// How saving the daemon's state goes, in the status document: a full or read-only state
/// directory shows in `syncmon status`, not only in a log line and a metric.
public struct StateSaveStatus: Decodable, Sendable, Equatable {
    /// When the state was last written completely; `nil` before the first save.
    public var lastSave: Timestamp?
    /// Saves that failed since the daemon started.
    public var failures: UInt64
    /// Failures since the last success: above zero, the state on disk is behind.
    public var failingInARow: UInt64

    public init(lastSave: Timestamp?, failures: UInt64, failingInARow: UInt64) {
        self.lastSave = lastSave
        self.failures = failures
        self.failingInARow = failingInARow
    }

    enum CodingKeys: String, CodingKey {
        case lastSave, failures, failingInARow
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.lastSave = try container.decodeTimeIfPresent(forKey: .lastSave)
        self.failures = try container.decode(UInt64.self, forKey: .failures)
        self.failingInARow = try container.decode(UInt64.self, forKey: .failingInARow)
    }

    /// The warning `syncmon status` prints while saves fail, `nil` while they succeed.
    public var warning: String? {
        guard self.failingInARow > 0 else { return nil }
        let since = self.lastSave.map { "since \(RFC3339.format($0))" } ?? "at all since the daemon started"
        return "the daemon has not saved its state \(since): \(self.failingInARow) save(s) failed in a row (is the state directory full or read-only?)"
    }
}
