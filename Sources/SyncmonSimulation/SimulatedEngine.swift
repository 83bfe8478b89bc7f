import SyncmonClient
import SyncmonCore

/// One simulated engine: a small state machine that plans its activity a segment (a fetch and
/// send cycle, an outage, a rate-limited attempt, a hang) at a time, following its scenario.
///
/// All randomness comes from the engine's own seeded generator, so a fleet with the same seed
/// and options produces the same actions at the same times.
package struct SimulatedEngine: Sendable {
    /// The engine identifier.
    package let name: String
    package let scenario: SimulationScenario
    /// The mean time between two events of a cycle, from the fleet's target rate.
    private let step: TimeSpan
    private var random: SplitMix64
    /// The current segment and the position in it.
    private var script: [PlannedAction] = []
    private var cursor = 0
    /// The engine crashed and does nothing more.
    package private(set) var isDead = false
    /// Record changes waiting to be sent.
    private var pending: Int
    /// The engine's record zones.
    private let zones: [String]

    /// When the crash scenario dies.
    private let crashAt: Timestamp?
    /// When the next hang (hung-fetch) or outage (flaky-network) begins.
    private var nextTrouble: Timestamp?
    /// The end of the current rate-limited period.
    private var limitedUntil: Timestamp?
    /// Idle time the last segment asked for before the next (a retry-after being honoured).
    private var carriedIdle: TimeSpan = .zero

    /// Zone names engines pick from.
    private static let zoneNames = ["Notes", "Attachments", "Settings", "Tags", "Photos", "Albums", "Contacts", "Drafts", "Reminders", "Bookmarks"]

    package init(name: String, scenario: SimulationScenario, step: TimeSpan, start: Timestamp, duration: TimeSpan?, random: SplitMix64) {
        self.name = name
        self.scenario = scenario
        self.step = step
        self.random = random
        self.pending = Int.random(in: 0...30, using: &self.random)
        var zones = Self.zoneNames.shuffled(using: &self.random)
        zones.removeLast(zones.count - Int.random(in: 1...3, using: &self.random))
        self.zones = zones

        /// A moment `range` seconds after the start, but within the first `fraction` of the
        /// duration when one is set (so that a short demo still shows it).
        func after(_ range: ClosedRange<Double>, within fraction: Double, _ random: inout SplitMix64) -> Timestamp {
            var seconds = Double.random(in: range, using: &random)
            if let duration { seconds = min(seconds, duration.seconds * fraction) }
            return start.adding(.seconds(seconds))
        }
        switch scenario {
        case .crash:
            self.crashAt = after(120...180, within: 0.5, &self.random)
        case .hungFetch:
            self.crashAt = nil
            self.nextTrouble = after(20...40, within: 0.1, &self.random)
        case .flakyNetwork:
            self.crashAt = nil
            self.nextTrouble = after(30...90, within: 0.3, &self.random)
        case .rateLimited:
            self.crashAt = nil
            self.nextTrouble = after(30...60, within: 0.1, &self.random)
        case .healthy, .quotaExceeded:
            self.crashAt = nil
        }
        // Engines do not all start in the same instant.
        let stagger = TimeSpan.seconds(Double.random(in: 0...min(2, max(0.001, step.seconds * 4)), using: &self.random))
        self.script = [
            PlannedAction(delay: stagger, action: .start),
            PlannedAction(delay: self.jittered(), action: .event(.accountStatus(.available))),
            PlannedAction(delay: self.jittered(), action: .event(.networkStatus(available: true))),
            PlannedAction(delay: self.jittered(), action: .event(.stateUpdate(pendingRecordZoneChanges: self.pending, pendingDatabaseChanges: 0))),
        ]
    }

    /// The delay before the first action, from the fleet's start.
    package var firstDelay: TimeSpan { self.script.first?.delay ?? .zero }

    /// Performs the action due at `now`; returns it and when the next one is due (`nil`: none).
    package mutating func advance(at now: Timestamp) -> (action: SimulatedAction, next: Timestamp?) {
        if let crashAt, now >= crashAt {
            self.isDead = true
            return (.crash, nil)
        }
        let action = self.script[self.cursor].action
        self.cursor += 1
        if self.cursor == self.script.count {
            self.script = self.plan(at: now)
            self.cursor = 0
        }
        var next = now.adding(self.script[self.cursor].delay)
        // The crash interrupts whatever the engine was doing.
        if let crashAt, next > crashAt { next = max(now, crashAt) }
        return (action, next)
    }

    // MARK: Planning

    /// A delay around `step` (half to one and a half of it).
    private mutating func jittered(_ factor: ClosedRange<Double> = 0.5...1.5) -> TimeSpan {
        TimeSpan(microseconds: max(1, Int64((Double(self.step.microseconds) * Double.random(in: factor, using: &self.random)).rounded())))
    }

    /// The next segment, starting at `now` (the previous one just ended).
    private mutating func plan(at now: Timestamp) -> [PlannedAction] {
        var segment = Segment()
        let idle = TimeSpan(microseconds: self.jittered(1...4).microseconds + self.carriedIdle.microseconds)
        self.carriedIdle = .zero
        defer { self.carriedIdle = segment.idleAfter }
        switch self.scenario {
        case .healthy, .quotaExceeded, .crash:
            self.cycle(into: &segment, after: idle)
        case .flakyNetwork:
            if let outage = self.nextTrouble, now >= outage {
                let length = TimeSpan.seconds(Double.random(in: 10...45, using: &self.random))
                segment.add(.event(.networkStatus(available: false)), after: idle)
                segment.add(.event(.networkStatus(available: true)), after: length)
                self.nextTrouble = now.adding(length).adding(.seconds(Double.random(in: 60...180, using: &self.random)))
            } else {
                self.cycle(into: &segment, after: idle)
            }
        case .rateLimited:
            self.planRateLimited(at: now, into: &segment, idle: idle)
        case .hungFetch:
            if let hang = self.nextTrouble, now >= hang {
                let zone = self.zones[0]
                let length = TimeSpan.seconds(Double.random(in: 1200...1800, using: &self.random))
                segment.add(.event(.willFetchChanges(reason: .scheduled)), after: idle)
                segment.add(.event(.willFetchRecordZoneChanges(zone: zone)), after: self.jittered())
                // Nothing but heartbeats for 20-30 minutes, then the fetch completes.
                segment.add(.event(.fetchedRecordZoneChanges(zone: zone, modifications: self.batchSize(), deletions: 0)), after: length)
                segment.add(.event(.didFetchRecordZoneChanges(zone: zone, error: nil)), after: self.jittered())
                segment.add(.event(.didFetchChanges(reason: .scheduled)), after: self.jittered())
                self.nextTrouble = now.adding(length).adding(.seconds(Double.random(in: 600...1200, using: &self.random)))
            } else {
                self.cycle(into: &segment, after: idle)
            }
        }
        return segment.planned
    }

    /// Rate limiting: inside a limited period every send is refused with a retry-after and the
    /// engine waits as told; outside, normal cycles.
    private mutating func planRateLimited(at now: Timestamp, into segment: inout Segment, idle: TimeSpan) {
        if self.limitedUntil == nil, let start = self.nextTrouble, now >= start {
            self.limitedUntil = now.adding(.seconds(Double.random(in: 600...1200, using: &self.random)))
        }
        guard let until = self.limitedUntil else {
            self.cycle(into: &segment, after: idle)
            return
        }
        guard now < until else {
            self.limitedUntil = nil
            self.nextTrouble = now.adding(.seconds(Double.random(in: 180...300, using: &self.random)))
            self.cycle(into: &segment, after: idle)
            return
        }
        let retryAfterSeconds = Int64.random(in: 30...120, using: &self.random)
        let retryAfter = Duration.seconds(retryAfterSeconds)
        self.pending += Int.random(in: 0...5, using: &self.random)
        let refused = min(max(1, self.pending), 400)
        let failures = (0..<min(refused, 5)).map { _ in
            EngineFailure(.requestRateLimited, zone: self.zones[0], recordName: self.recordName(), retryAfter: retryAfter)
        }
        segment.add(.event(.willSendChanges(reason: .scheduled)), after: idle)
        segment.add(
            .event(.sentRecordZoneChanges(savedRecords: 0, deletedRecords: 0, failedRecordSaves: failures, failedRecordDeletes: [])),
            after: self.jittered()
        )
        segment.add(.event(.stateUpdate(pendingRecordZoneChanges: self.pending, pendingDatabaseChanges: 0)), after: self.jittered())
        segment.add(.event(.didSendChanges(reason: .scheduled)), after: self.jittered())
        // The engine honours the retry-after: its next attempt comes just after it ends.
        segment.idleAfter = .seconds(Double(retryAfterSeconds) + Double.random(in: 0.2...1, using: &self.random))
    }

    /// A fetch cycle and, when changes are pending, a send cycle.
    private mutating func cycle(into segment: inout Segment, after idle: TimeSpan) {
        let flaky = self.scenario == .flakyNetwork
        segment.add(.event(.willFetchChanges(reason: .scheduled)), after: idle)
        if Double.random(in: 0..<1, using: &self.random) < 0.25 {
            segment.add(
                .event(
                    .fetchedDatabaseChanges(modifications: Int.random(in: 0...3, using: &self.random), deletions: Int.random(in: 0...1, using: &self.random))),
                after: self.jittered()
            )
        }
        let transientFetch = flaky && Double.random(in: 0..<1, using: &self.random) < 0.2
        for (index, zone) in self.zones.enumerated() {
            segment.add(.event(.willFetchRecordZoneChanges(zone: zone)), after: self.jittered())
            for _ in 0..<Int.random(in: 1...2, using: &self.random) {
                segment.add(
                    .event(.fetchedRecordZoneChanges(zone: zone, modifications: self.batchSize(), deletions: Int.random(in: 0...5, using: &self.random))),
                    after: self.jittered()
                )
            }
            let error = transientFetch && index == 0 ? EngineError(.networkFailure, message: "The network connection was lost.") : nil
            segment.add(.event(.didFetchRecordZoneChanges(zone: zone, error: error)), after: self.jittered())
        }
        segment.add(.event(.didFetchChanges(reason: .scheduled)), after: self.jittered())

        // Local edits since the last cycle.
        if Double.random(in: 0..<1, using: &self.random) < 0.6 {
            self.pending += Int.random(in: 1...40, using: &self.random)
            segment.add(.event(.stateUpdate(pendingRecordZoneChanges: self.pending, pendingDatabaseChanges: 0)), after: self.jittered())
        }
        guard self.pending > 0 else { return }
        segment.add(.event(.willSendChanges(reason: .scheduled)), after: self.jittered())
        let batch = min(self.pending, 400)
        var failures: [EngineFailure] = []
        switch self.scenario {
        case .quotaExceeded:
            let count = min(batch, Int.random(in: 1...20, using: &self.random))
            failures = (0..<count).map { _ in
                EngineFailure(.quotaExceeded, zone: self.zones[0], recordName: self.recordName(), message: "The user's iCloud storage is full.")
            }
        case .flakyNetwork where Double.random(in: 0..<1, using: &self.random) < 0.2:
            failures = [EngineFailure(.networkFailure, zone: self.zones[0], recordName: self.recordName())]
        default:
            // Another device changed the same record: resolved by the app, counted only.
            if batch > 1, Double.random(in: 0..<1, using: &self.random) < 0.1 {
                failures = [EngineFailure(.serverRecordChanged, zone: self.zones[0], recordName: self.recordName())]
            }
        }
        let saved = batch - failures.count
        segment.add(
            .event(
                .sentRecordZoneChanges(
                    savedRecords: saved, deletedRecords: Int.random(in: 0...3, using: &self.random),
                    failedRecordSaves: failures, failedRecordDeletes: []
                )),
            after: self.jittered()
        )
        // Conflicts are resolved and sent again later; quota and network failures stay pending.
        self.pending -= self.scenario == .quotaExceeded ? saved - Int.random(in: 0...saved / 2, using: &self.random) : saved
        self.pending = max(0, self.pending)
        segment.add(.event(.stateUpdate(pendingRecordZoneChanges: self.pending, pendingDatabaseChanges: 0)), after: self.jittered())
        segment.add(.event(.didSendChanges(reason: .scheduled)), after: self.jittered())
    }

    /// A fetched batch's size: mostly small, sometimes a full page.
    private mutating func batchSize() -> Int {
        Double.random(in: 0..<1, using: &self.random) < 0.1 ? Int.random(in: 100...400, using: &self.random) : Int.random(in: 0...25, using: &self.random)
    }

    private mutating func recordName() -> String {
        "rec-" + String(self.random.next() & 0xFFFF_FFFF, radix: 16)
    }
}

/// One planned action and how long after the previous one it happens.
private struct PlannedAction: Sendable {
    var delay: TimeSpan
    var action: SimulatedAction
}

/// A segment being planned: actions with their delays, and an optional idle time after the last.
private struct Segment {
    var planned: [PlannedAction] = []
    /// Added to the first delay of the next segment.
    var idleAfter: TimeSpan = .zero

    mutating func add(_ action: SimulatedAction, after delay: TimeSpan) {
        self.planned.append(PlannedAction(delay: delay, action: action))
    }
}
