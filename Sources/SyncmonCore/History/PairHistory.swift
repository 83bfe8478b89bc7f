/// A pair's health changes, oldest first, bounded (docs/operations.md#history): the last
/// ``keptFor`` (7 days) and at most ``maximumChanges`` (500), the oldest going first.
///
/// Time is passed in: ``append(_:)`` trims at the new change's time, ``trimmed(at:)`` and
/// ``changes(since:at:)`` at the `now` they are given, so that a pair that has been quiet for
/// a week shows no change older than that.
public struct PairHistory: Hashable, Sendable, Codable {
    /// How long a change is kept.
    public static let keptFor = TimeSpan.seconds(Int64(7 * 24 * 3_600))
    /// How many changes a pair keeps at most.
    public static let maximumChanges = 500

    /// The changes, oldest first.
    public private(set) var changes: [HealthChange]

    /// A history of `changes` (oldest first), trimmed to the bounds as of the last of them.
    public init(_ changes: [HealthChange] = []) {
        self.changes = changes
        if let last = changes.last { self.trim(at: last.time) }
    }

    public var isEmpty: Bool { self.changes.isEmpty }

    /// Adds a change, then drops what fell out of the bounds as of its time.
    public mutating func append(_ change: HealthChange) {
        self.changes.append(change)
        self.trim(at: change.time)
    }

    /// Drops the changes older than ``keptFor`` at `now`, then the oldest beyond ``maximumChanges``.
    public mutating func trim(at now: Timestamp) {
        let cutoff = now.adding(TimeSpan(microseconds: -Self.keptFor.microseconds))
        // Changes are appended in the order they are seen; a step back of the host's clock
        // can put an older time after a newer one, so every change is looked at.
        if self.changes.contains(where: { $0.time < cutoff }) { self.changes.removeAll { $0.time < cutoff } }
        if self.changes.count > Self.maximumChanges { self.changes.removeFirst(self.changes.count - Self.maximumChanges) }
    }

    /// The history as of `now`: what ``trim(at:)`` keeps.
    public func trimmed(at now: Timestamp) -> PairHistory {
        var history = self
        history.trim(at: now)
        return history
    }

    /// The changes kept at `now` that happened at or after `since` (all kept ones without it).
    public func changes(since: Timestamp?, at now: Timestamp) -> [HealthChange] {
        let cutoff = now.adding(TimeSpan(microseconds: -Self.keptFor.microseconds))
        let from = max(cutoff, since ?? cutoff)
        return self.changes.filter { $0.time >= from }
    }

    /// Stored as the bare list of changes.
    public init(from decoder: any Decoder) throws {
        self.changes = try decoder.singleValueContainer().decode([HealthChange].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.changes)
    }
}
