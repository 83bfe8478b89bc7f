/// Why a pair counts as stalled (docs/protocol.md#stall-detectors), in the documented order.
public enum StallReason: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Setup succeeded and no import has started since.
    case notSyncing
    /// A phase has been in progress with no progress event.
    case noProgress
    /// Changes are pending and no export succeeded.
    case pendingNotDraining
    /// Transient errors keep arriving and nothing succeeds.
    case retryLoop
    /// No import succeeded.
    case noRecentImport
    /// No export succeeded: the dead man's switch of a backup or mirror job.
    case noRecentExport
    /// A peer's canary has not moved, or this host's has not come back (docs/canary.md).
    case canaryLate

    /// The label, status JSON and flag spelling.
    public var description: String {
        switch self {
        case .notSyncing: "not_syncing"
        case .noProgress: "no_progress"
        case .pendingNotDraining: "pending_not_draining"
        case .retryLoop: "retry_loop"
        case .noRecentImport: "no_recent_import"
        case .noRecentExport: "no_recent_export"
        case .canaryLate: "canary_late"
        }
    }

    public init?(_ name: String) {
        guard let reason = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = reason
    }

    /// The reasons with a global or per-engine threshold (`--not-syncing-after` …); a
    /// canary's is its own `late-after`.
    public static let thresholdReasons = Self.allCases.filter { $0 != .canaryLate }
}

/// A set of stall reasons, one bit each, iterated in the documented order.
public struct StallSet: Hashable, Sendable, Codable, Sequence {
    public private(set) var rawValue: UInt8 = 0

    /// Every reason needs a bit of `rawValue`: a ninth reason must widen it, not vanish.
    static let hasRoomForEveryReason = StallReason.allCases.count <= UInt8.bitWidth

    public init() {}

    public init<Reasons: Sequence<StallReason>>(_ reasons: Reasons) {
        for reason in reasons { self.insert(reason) }
    }

    public var isEmpty: Bool { self.rawValue == 0 }

    public func contains(_ reason: StallReason) -> Bool {
        self.rawValue & 1 << reason.rawValue != 0
    }

    public mutating func insert(_ reason: StallReason) {
        // A precondition, not an assert: a shift past the width gives 0 in release builds too,
        // and the stall would vanish from every verdict. A constant, so it costs nothing.
        precondition(Self.hasRoomForEveryReason, "StallSet.rawValue is narrower than StallReason")
        self.rawValue |= 1 << reason.rawValue
    }

    public func makeIterator() -> IndexingIterator<[StallReason]> {
        StallReason.allCases.filter { self.contains($0) }.makeIterator()
    }
}

/// How long each stall condition must hold before it fires; zero disables a detector.
public struct StallThresholds: Hashable, Sendable {
    public var notSyncing: TimeSpan
    public var noProgress: TimeSpan
    public var pendingNotDraining: TimeSpan
    public var retryLoop: TimeSpan
    public var noRecentImport: TimeSpan
    public var noRecentExport: TimeSpan

    /// The defaults: 60 s, 300 s, 900 s, 1800 s, and the two dead man's switches disabled.
    public static let defaults = StallThresholds(
        notSyncing: .seconds(60 as Int64),
        noProgress: .seconds(300 as Int64),
        pendingNotDraining: .seconds(900 as Int64),
        retryLoop: .seconds(1800 as Int64),
        noRecentImport: .zero,
        noRecentExport: .zero
    )

    public init(
        notSyncing: TimeSpan,
        noProgress: TimeSpan,
        pendingNotDraining: TimeSpan,
        retryLoop: TimeSpan,
        noRecentImport: TimeSpan,
        noRecentExport: TimeSpan = .zero
    ) {
        self.notSyncing = notSyncing
        self.noProgress = noProgress
        self.pendingNotDraining = pendingNotDraining
        self.retryLoop = retryLoop
        self.noRecentImport = noRecentImport
        self.noRecentExport = noRecentExport
    }

    public subscript(reason: StallReason) -> TimeSpan {
        get {
            switch reason {
            case .notSyncing: self.notSyncing
            case .noProgress: self.noProgress
            case .pendingNotDraining: self.pendingNotDraining
            case .retryLoop: self.retryLoop
            case .noRecentImport: self.noRecentImport
            case .noRecentExport: self.noRecentExport
            // Each canary has its own (`late-after`, docs/canary.md): no global threshold.
            case .canaryLate: .zero
            }
        }
        set {
            switch reason {
            case .notSyncing: self.notSyncing = newValue
            case .noProgress: self.noProgress = newValue
            case .pendingNotDraining: self.pendingNotDraining = newValue
            case .retryLoop: self.retryLoop = newValue
            case .noRecentImport: self.noRecentImport = newValue
            case .noRecentExport: self.noRecentExport = newValue
            case .canaryLate: break
            }
        }
    }
}
