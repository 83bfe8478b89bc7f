/// An error as carried by events (docs/protocol.md#event-types `Error`): the code, the
/// retry-after and the message (cut and escaped, `ErrorMessage`) are kept; record names are
/// for logs, and nothing but the code is ever a label.
public struct SyncError: Hashable, Sendable, Codable {
    public var code: ErrorCode
    /// `retryAfter`, when the engine was told to wait.
    public var retryAfter: TimeSpan?
    /// Why, in the engine's own words: at most `ErrorMessage.maximumBytes`, control characters
    /// escaped. For status, the table and the journal; never a metric label.
    public var message: String?

    public init(code: ErrorCode, retryAfter: TimeSpan? = nil, message: String? = nil) {
        self.code = code
        self.retryAfter = retryAfter
        self.message = message
    }

    public var errorClass: ErrorClass { self.code.errorClass }
}

/// Counts of error codes seen in one event, stored inline so that an event stays a plain value.
///
/// Up to eight distinct code labels are kept apart; a single failure list with more distinct
/// codes than that (no real engine sends one) counts the rest under `other`.
public struct ErrorCodeTally: Sendable, Equatable {
    public static let capacity = 8
    private var labels: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var counts: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var used = 0

    public init() {}

    public static func == (lhs: ErrorCodeTally, rhs: ErrorCodeTally) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0 == $1 }
    }

    /// Counts `count` more errors with `label`.
    public mutating func add(_ label: ErrorCodeLabel, count: UInt32 = 1) {
        var label = label
        let used = self.used
        let slot: Int? = withUnsafeBytes(of: self.labels) { labels in
            (0..<used).first { labels[$0] == label.index }
        }
        if let slot {
            withUnsafeMutableBytes(of: &self.counts) {
                $0.storeBytes(of: $0.load(fromByteOffset: slot * 4, as: UInt32.self) &+ count, toByteOffset: slot * 4, as: UInt32.self)
            }
            return
        }
        if used == Self.capacity {
            // Full: fold into `other`, which then needs a slot of its own or is already one.
            guard label != .other else { return self.add(.other, count: count, replacingLast: true) }
            label = .other
            return self.add(label, count: count)
        }
        withUnsafeMutableBytes(of: &self.labels) { $0[used] = label.index }
        withUnsafeMutableBytes(of: &self.counts) { $0.storeBytes(of: count, toByteOffset: used * 4, as: UInt32.self) }
        self.used += 1
    }

    /// Full and without an `other` slot: the last slot's count joins `other`, which takes it over.
    private mutating func add(_ other: ErrorCodeLabel, count: UInt32, replacingLast: Bool) {
        let last = Self.capacity - 1
        withUnsafeMutableBytes(of: &self.labels) { $0[last] = other.index }
        withUnsafeMutableBytes(of: &self.counts) {
            $0.storeBytes(of: $0.load(fromByteOffset: last * 4, as: UInt32.self) &+ count, toByteOffset: last * 4, as: UInt32.self)
        }
    }

    /// Each label with its count, in first-seen order.
    public var entries: [(ErrorCodeLabel, UInt32)] {
        var result: [(ErrorCodeLabel, UInt32)] = []
        self.forEach { result.append(($0, $1)) }
        return result
    }

    /// Calls `body` for each label and count without building an array (the hot path).
    public func forEach(_ body: (ErrorCodeLabel, UInt32) -> Void) {
        withUnsafeBytes(of: self.labels) { labels in
            withUnsafeBytes(of: self.counts) { counts in
                for slot in 0..<self.used {
                    body(ErrorCodeLabel(index: labels[slot]), counts.load(fromByteOffset: slot * 4, as: UInt32.self))
                }
            }
        }
    }
}

/// What a failure list (`failedRecordSaves`, …) amounts to for the state model.
///
/// The decoder folds each list into this digest as it reads it, so an event never holds an array.
public struct FailureDigest: Sendable, Equatable {
    /// Number of failures.
    public var count: Int = 0
    /// The first actionable failure, which a failed cycle shows (docs/protocol.md#how-a-cycle-ends).
    public var firstActionable: SyncError? = nil
    /// The first transient failure, shown when nothing actionable failed.
    public var firstTransient: SyncError? = nil
    /// The last `retryAfter` in list order: a later one replaces an earlier one (docs/protocol.md#what-each-event-does).
    public var retryAfter: TimeSpan? = nil
    /// Failures by code label.
    public var codes = ErrorCodeTally()

    public init() {}

    /// Folds one failure in.
    public mutating func add(_ error: SyncError) {
        self.count += 1
        self.codes.add(error.code.label)
        switch error.errorClass {
        case .actionable where self.firstActionable == nil: self.firstActionable = error
        case .transient where self.firstTransient == nil: self.firstTransient = error
        default: break
        }
        if let retryAfter = error.retryAfter { self.retryAfter = retryAfter }
    }

    /// Folds another digest in, after this one in list order.
    public mutating func merge(_ other: FailureDigest) {
        self.count += other.count
        other.codes.forEach { label, count in self.codes.add(label, count: count) }
        if self.firstActionable == nil { self.firstActionable = other.firstActionable }
        if self.firstTransient == nil { self.firstTransient = other.firstTransient }
        if let retryAfter = other.retryAfter { self.retryAfter = retryAfter }
    }
}
