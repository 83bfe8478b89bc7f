import SyncmonCore

/// What a page shows, taken from the state model at one moment: the host's name, the time, and
/// every pair in the page's order (``PageOrder``). Built only when a page is asked for, so that
/// nobody looking costs nothing.
public struct PageModel: Sendable {
    public var host: String
    public var now: Timestamp
    /// Problems first, then by name.
    public var pairs: [PagePair]

    public init(host: String, now: Timestamp, pairs: [PagePair]) {
        self.host = host
        self.now = now
        self.pairs = PageOrder.sorted(pairs)
    }

    /// The model of `monitor` at `now`: every pair's row, last successes and kept history.
    public init(monitor: Monitor, host: String, now: Timestamp) {
        let pairs = monitor.rows(at: now).map { row in
            let state = monitor.pairs[row.key]
            return PagePair(
                row: row,
                lastImport: state?.lastSuccess(of: .import),
                lastExport: state?.lastSuccess(of: .export),
                changes: monitor.history(of: row.key)?.changes(since: nil, at: now) ?? []
            )
        }
        self.init(host: host, now: now, pairs: pairs)
    }

    /// The pair `key`, if it is tracked.
    public func pair(_ key: PairKey) -> PagePair? {
        self.pairs.first { $0.key == key }
    }

    /// How many pairs are in each health state, in the order of ``PageHealth/allCases``; states
    /// with no pair left out.
    public var counts: [(health: PageHealth, count: Int)] {
        var counts = [Int](repeating: 0, count: PageHealth.allCases.count)
        for pair in self.pairs { counts[PageHealth(pair.row.summary).rawValue] += 1 }
        return PageHealth.allCases.compactMap { health -> (health: PageHealth, count: Int)? in
            counts[health.rawValue] > 0 ? (health: health, count: counts[health.rawValue]) : nil
        }
    }
}

/// The page's order of pairs: problems first, then by name (the table's order of names). A
/// problem is ranked as `syncmon status` exits: critical, then unknown, then warning; after them
/// the summaries that are healthy by that measure but not `ok` (retrying, throttled, stopped),
/// and the `ok` pairs last.
public enum PageOrder {
    public static func sorted(_ pairs: [PagePair]) -> [PagePair] {
        pairs.sorted { lhs, rhs in
            let (left, right) = (self.rank(lhs.row.summary), self.rank(rhs.row.summary))
            return left != right ? left < right : lhs.key < rhs.key
        }
    }

    /// 0 for the most urgent.
    public static func rank(_ summary: Summary) -> Int {
        switch summary.severity {
        case .critical: 0
        case .unknown: 1
        case .warning: 2
        case .ok: summary.isOK ? 4 : 3
        }
    }
}
