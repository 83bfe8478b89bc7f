/// An error as carried by events (SPEC §1.3 `Error`): only the code and the retry-after are
/// kept; messages and record names are for logs, never state or labels.
public struct SyncError: Hashable, Sendable, Codable {
    public var code: ErrorCode
    /// `retryAfter`, when the engine was told to wait.
    public var retryAfter: TimeSpan?

    public init(code: ErrorCode, retryAfter: TimeSpan? = nil) {
        self.code = code
        self.retryAfter = retryAfter
    }

    public var errorClass: ErrorClass { self.code.errorClass }
}

/// Counts of error codes seen in one event, without allocating for the usual one or two codes.
public struct ErrorCodeTally: Sendable, Equatable {
    /// Up to four distinct labels inline; `counts` after that (never in real traffic).
    private var inline: ((UInt8, UInt32), (UInt8, UInt32), (UInt8, UInt32), (UInt8, UInt32)) = ((0, 0), (0, 0), (0, 0), (0, 0))
    private var inlineCount = 0
    private var spilled: [UInt32]? = nil

    public init() {}

    public static func == (lhs: ErrorCodeTally, rhs: ErrorCodeTally) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0 == $1 }
    }

    /// Counts `count` more errors with `label`.
    public mutating func add(_ label: ErrorCodeLabel, count: UInt32 = 1) {
        if self.spilled != nil {
            self.spilled![Int(label.index)] &+= count
            return
        }
        let found: Bool = withUnsafeMutableBytes(of: &self.inline) { raw in
            let slots = raw.bindMemory(to: (UInt8, UInt32).self)
            for slot in 0..<self.inlineCount where slots[slot].0 == label.index {
                slots[slot].1 &+= count
                return true
            }
            guard self.inlineCount < 4 else { return false }
            slots[self.inlineCount] = (label.index, count)
            self.inlineCount += 1
            return true
        }
        if !found {
            var counts = [UInt32](repeating: 0, count: ErrorCodeLabel.all.count)
            for (existing, count) in self.entries { counts[Int(existing.index)] = count }
            counts[Int(label.index)] &+= count
            self.spilled = counts
        }
    }

    /// Each label with its count, in first-seen order (label order once spilled).
    public var entries: [(ErrorCodeLabel, UInt32)] {
        if let spilled = self.spilled {
            return spilled.enumerated().compactMap { $0.element > 0 ? (ErrorCodeLabel(index: UInt8($0.offset)), $0.element) : nil }
        }
        return withUnsafeBytes(of: self.inline) { raw in
            let slots = raw.bindMemory(to: (UInt8, UInt32).self)
            return (0..<self.inlineCount).map { (ErrorCodeLabel(index: slots[$0].0), slots[$0].1) }
        }
    }

    /// Calls `body` for each label and count without building an array (the hot path).
    public func forEach(_ body: (ErrorCodeLabel, UInt32) -> Void) {
        if let spilled = self.spilled {
            for (index, count) in spilled.enumerated() where count > 0 { body(ErrorCodeLabel(index: UInt8(index)), count) }
            return
        }
        withUnsafeBytes(of: self.inline) { raw in
            let slots = raw.bindMemory(to: (UInt8, UInt32).self)
            for slot in 0..<self.inlineCount { body(ErrorCodeLabel(index: slots[slot].0), slots[slot].1) }
        }
    }
}

/// What a failure list (`failedRecordSaves`, …) amounts to for the state model.
///
/// The decoder folds each list into this digest as it reads it, so an event never holds an array.
public struct FailureDigest: Sendable, Equatable {
    /// Number of failures.
    public var count: Int = 0
    /// The first actionable failure, which a failed cycle shows (SPEC §9.4).
    public var firstActionable: SyncError? = nil
    /// The first transient failure, shown when nothing actionable failed.
    public var firstTransient: SyncError? = nil
    /// The last `retryAfter` in list order: a later one replaces an earlier one (SPEC §9.6).
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
