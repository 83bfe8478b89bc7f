import Logging
import NIOPosix
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonLock
import SyncmonNotify
import SyncmonSystemd

/// Runs the notification routes (docs/notifications.md): feeds each route every pair's summary
/// when the state changes, moves the routes on at the times they ask for (no wakeups while
/// nothing waits), and delivers what they owe concurrently, each delivery with its route's
/// timeout, so a hung target blocks neither ingest, evaluation, scrapes nor another route.
///
/// What the routes decide is saved (`notify.json`) before it is delivered and after every
/// outcome: a restart sends what was owed and nothing that was sent; a `kill -9` between the
/// decision and the delivery delivers it after the restart, once. A clean stop lets deliveries
/// under way finish for a moment (``stopGrace``); a failed save is retried (``saveRetry``).
package final class NotificationService: Service, Sendable {
    /// The shortest time between two looks at the pairs: under a stream of events the routes
    /// look once a second (every pair's summary, every route), not once per batch. Holds are
    /// minutes; a second later costs nothing.
    static let lookInterval = TimeSpan.seconds(Int64(1))
    /// The longest sleep while a deadline waits, so a step of the real-time clock is noticed.
    static let longestSleep = TimeSpan.seconds(Int64(60))
    /// After a failed save (a full or read-only state directory), how long until it is tried
    /// again, whether or not anything changed: what is owed reaches the disk once there is room.
    static let saveRetry = TimeSpan.seconds(Int64(5))
    /// On a clean stop, how long deliveries under way may still finish and be recorded, so one
    /// that completes is not sent again after the restart; one still running after this is cut
    /// off, and sent again (once) after the restart.
    static let stopGrace = TimeSpan.seconds(Int64(5))

    private let store: MonitorStore
    private let clock: any ServiceClock
    private let logger: Logger
    private let file: NotificationStateFile
    private let host: String
    private let pool: NIOThreadPool
    private let senders: [String: NotificationSender]
    /// Route names in order, for the metrics and `notify list`.
    package let names: [String]
    private let routes: Locked<[String: RouteSlot]>
    private let wake = WakeUp()
    private let failureLog = Locked(RejectionLimiter(burst: 5, window: .seconds(Int64(60))))
    /// When the routes last looked at the pairs.
    private let lastLook = Locked<Timestamp?>(nil)
    /// When a save that failed is tried again; `nil` while the file is up to date.
    private let saveRetryAt = Locked<Timestamp?>(nil)
    /// Counts failed saves with the state's (`syncmon_state_save_failures_total`).
    private let health: PersistenceHealth
    /// Deliveries under way, by a number of their own, awaited on a clean stop.
    private let underWay = Locked<[UInt64: Task<Void, Never>]>([:])
    private let deliveryNumber = Locked<UInt64>(0)

    /// One route's decisions and what it has done, for the metrics.
    struct RouteSlot: Sendable {
        var route: NotificationRoute
        /// Deliveries by `event outcome` (`firing sent`, `test failed`, …).
        var counts: [String: Int] = [:]
        var lastSuccess: Timestamp?
    }

    /// A delivery decided and handed to a sender.
    private struct Delivery: Sendable {
        var route: String
        var id: UInt64
        var message: NotificationMessage
    }

    /// `health` counts failed saves with the state's.
    package init(
        routes: [NotificationRouteConfiguration], store: MonitorStore, clock: any ServiceClock, stateDirectory: String, logger: Logger,
        health: PersistenceHealth = PersistenceHealth()
    ) throws {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.health = health
        let file = NotificationStateFile(stateDirectory: stateDirectory)

        let pool = NIOThreadPool(numberOfThreads: 4)
        self.file = file
        self.host = NotificationHost.name
        self.pool = pool
        var senders: [String: NotificationSender] = [:]
        for route in routes { senders[route.name] = try NotificationSender(route: route, pool: pool) }
        self.senders = senders
        self.names = routes.map(\.name)
        var saved: [String: NotificationRouteState] = [:]
        switch file.load() {
        case .success(let routes): saved = routes
        case .failure(let error):
            logger.error(
                "notification state file unreadable; routes start empty",
                metadata: [SyncmonMetadataKey.statePath: "\(file.path)", SyncmonMetadataKey.reason: "\(error)"])
        case nil: break
        }
        var slots: [String: RouteSlot] = [:]
        for route in routes {
            slots[route.name] = RouteSlot(route: NotificationRoute(policy: route.policy, state: saved[route.name] ?? NotificationRouteState()))
        }
        self.routes = Locked(slots)
    }

    package func run() async throws {
        self.pool.start()
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        await self.store.waitForChangeForNotifications()
                        self.wake.signal()
                    }
                }
                while !Task.isCancelled {
                    let now = self.clock.wallTime()
                    // Not children of this group: a stop waits for a delivery under way only up
                    // to `stopGrace` (a hung command ends at its own deadline).
                    for delivery in self.step(at: now) { self.start(delivery) }
                    let wake = self.routes.withLock { slots in slots.values.compactMap { $0.route.nextWake() }.min() }
                    await self.sleep(until: [wake, self.saveRetryAt.withLock { $0 }].compactMap { $0 }.min(), after: now)
                }
                group.cancelAll()
            }
        }
        await self.finishDeliveriesUnderWay()
        self.save()
        for sender in self.senders.values { await sender.shutdown() }
        // Not awaited: a command still running stops at its own deadline, not the daemon's stop.
        self.pool.shutdownGracefully { _ in }
    }

    /// Feeds the routes the pairs' summaries at `now`, moves them on, saves what they decided
    /// and returns the deliveries now due.
    private func step(at now: Timestamp) -> [Delivery] {
        let monitor = self.store.snapshot().monitor
        let summaries = monitor.summaries(at: now)
        var due: [(String, RouteNotification)] = []
        var dropped: [(String, Int)] = []
        let present = Set(summaries.map(\.key))
        let since = self.lastLook.withLock { last in
            defer { last = now }
            return last
        }
        // Every change of health since the last look, at its own time, then the summaries now:
        // a pair that broke and recovered between two looks is seen to, and one flapping faster
        // than the looks never looks steady.
        let passed = Self.changes(in: monitor, after: since)
        let changed = self.routes.withLock { slots in
            var changed = false
            for name in self.names {
                guard var slot = slots[name] else { continue }
                let before = slot.route.state
                Self.look(&slot.route, passed: passed, summaries: summaries, present: present, monitor: monitor, at: now)
                let newlyDropped = slot.route.state.dropped - before.dropped
                if newlyDropped > 0 {
                    slot.counts["firing dropped", default: 0] += newlyDropped
                    dropped.append((name, newlyDropped))
                }
                due += slot.route.startDeliveries(at: now).map { (name, $0) }
                changed = changed || slot.route.state != before
                slots[name] = slot
            }
            return changed
        }
        for (name, count) in dropped {
            self.logger.notice(
                "notification route dropped owed pairs that resolved before delivery",
                metadata: [
                    SyncmonMetadataKey.messageID: MessageID.notificationDropped.metadataValue, SyncmonMetadataKey.route: "\(name)",
                    SyncmonMetadataKey.notificationPairs: "\(count)",
                ])
        }
        if changed || !due.isEmpty || self.saveRetryAt.withLock({ $0.map { $0 <= now } ?? false }) { self.save() }
        guard !due.isEmpty else { return [] }
        let wanted = Set(due.flatMap { $0.1.pairs.map(\.pair) })
        var rows: [PairKey: StatusRow] = [:]
        for row in monitor.rows(at: now) where wanted.contains(row.key) { rows[row.key] = row }
        return due.compactMap { name, notification in
            guard let route = self.senders[name]?.route else { return nil }
            return Delivery(route: name, id: notification.id, message: NotificationMessage(notification, route: route, host: self.host, rows: rows, now: now))
        }
    }

    /// One route's look at the pairs at `now`: the changes `passed` since the last look at their
    /// own times, every pair's summary now, pairs no longer `present` forgotten, and the route
    /// moved on to `now` (public for the benchmark, which times it).
    package static func look(
        _ route: inout NotificationRoute, passed: [(PairKey, HealthChange)], summaries: [(key: PairKey, summary: Summary)],
        present: Set<PairKey>, monitor: Monitor, at now: Timestamp
    ) {
        for (key, change) in passed { route.observe(key, summary: change.to, previous: change.from, at: change.time) }
        for (key, summary) in summaries {
            route.observe(key, summary: summary, previous: Self.previous(of: key, in: monitor, now: summary), at: now)
        }
        for key in route.state.alerts.keys where !present.contains(key) { route.forget(key) }
        route.advance(to: now)
    }

    /// The summary `key` had before its summary became `summary`, as its history knows it.
    static func previous(of key: PairKey, in monitor: Monitor, now summary: Summary) -> Summary? {
        guard let last = monitor.history(of: key)?.changes.last, last.to == summary else { return nil }
        return last.from
    }

    /// The pairs' changes of health after `time`, oldest first; none for the first look after
    /// a start (`nil`), which takes the summaries as they are: a restart replays no history.
    package static func changes(in monitor: Monitor, after time: Timestamp?) -> [(PairKey, HealthChange)] {
        guard let time else { return [] }
        var passed: [(PairKey, HealthChange)] = []
        for index in monitor.pairs.indices {
            let history = monitor.pairs.histories[index]
            guard let last = history.changes.last, last.time > time else { continue }
            let key = monitor.pairs.keys[index]
            passed += history.changes.reversed().prefix { $0.time > time }.reversed().map { (key, $0) }
        }
        return passed.sorted { $0.1.time < $1.1.time }
    }

    /// Starts `delivery` in a task of its own: not a child of the run loop, so neither the loop
    /// nor a stop past ``stopGrace`` waits for a hung target (it ends at its own deadline).
    private func start(_ delivery: Delivery) {
        let number = self.deliveryNumber.withLock { number in
            number += 1
            return number
        }
        self.underWay.withLock { underWay in
            underWay[number] = Task {
                await self.deliver(delivery)
                _ = self.underWay.withLock { $0.removeValue(forKey: number) }
            }
        }
    }

    /// On a clean stop, waits up to ``stopGrace`` for the deliveries under way to finish and
    /// be recorded; what is still running then stays owed in the state file.
    private func finishDeliveriesUnderWay() async {
        let tasks = self.underWay.withLock { Array($0.values) }
        guard !tasks.isEmpty else { return }
        self.logger.info(
            "waiting for notification deliveries under way before the stop",
            metadata: [SyncmonMetadataKey.notificationDeliveries: "\(tasks.count)"])
        let (clock, deadline) = (self.clock, self.clock.wallTime().adding(Self.stopGrace))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for task in tasks { await task.value } }
            group.addTask { try? await clock.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
        let left = self.underWay.withLock { $0.count }
        if left > 0 {
            self.logger.warning(
                "notification deliveries cut off by the stop; they are sent again after the restart",
                metadata: [SyncmonMetadataKey.notificationDeliveries: "\(left)"])
        }
    }

    /// Delivers one notification and records the outcome.
    private func deliver(_ delivery: Delivery) async {
        guard let sender = self.senders[delivery.route] else { return }
        let outcome = await sender.send(delivery.message)
        let now = self.clock.wallTime()
        self.routes.withLock { slots in
            switch outcome {
            case .delivered:
                slots[delivery.route]?.route.delivered(delivery.id)
                slots[delivery.route]?.counts["\(delivery.message.event) sent", default: 0] += 1
                slots[delivery.route]?.lastSuccess = now
            case .failed:
                slots[delivery.route]?.route.failed(delivery.id, at: now)
                slots[delivery.route]?.counts["\(delivery.message.event) failed", default: 0] += 1
            }
        }
        self.save()
        self.log(outcome, of: delivery.message, at: now)
        self.wake.signal()
    }

    /// `syncmon notify test`: a test message through `route` at once, outside its rules;
    /// `nil` when there is no such route.
    package func test(route name: String) async -> DeliveryOutcome? {
        guard let sender = self.senders[name] else { return nil }
        let message = NotificationMessage.test(route: name, host: self.host, url: sender.route.pageURL)
        let outcome = await sender.send(message)
        let now = self.clock.wallTime()
        self.routes.withLock { slots in
            slots[name]?.counts["test \(outcome == .delivered ? "sent" : "failed")", default: 0] += 1
            if outcome == .delivered { slots[name]?.lastSuccess = now }
        }
        self.log(outcome, of: message, at: now)
        return outcome
    }

    /// Each route's counts, owed notifications and last success, for the metrics and `notify list`.
    package func snapshot() -> [NotificationRouteSnapshot] {
        self.routes.withLock { slots in
            self.names.compactMap { name in
                guard let slot = slots[name], let sender = self.senders[name] else { return nil }
                return NotificationRouteSnapshot(
                    name: name, target: sender.route.target.kind, counts: slot.counts, owed: slot.route.state.owed,
                    firing: slot.route.state.alerts.values.filter { if case .pending = $0 { false } else { true } }.count,
                    lastSuccess: slot.lastSuccess)
            }
        }
    }

    /// Writes every route's state; a failure is counted, logged (rate-limited) and tried again
    /// after ``saveRetry`` while deliveries go on from memory.
    private func save() {
        let states = self.routes.withLock { slots in slots.mapValues(\.route.state) }
        do {
            try self.file.save(states)
            self.saveRetryAt.withLock { $0 = nil }
        } catch {
            let now = self.clock.wallTime()
            self.saveRetryAt.withLock { $0 = now.adding(Self.saveRetry) }
            _ = self.health.failed()
            // Deliveries go on: a notification sent twice after a crash beats one never sent.
            if self.failureLog.withLock({ $0.admit(1, at: now).log }) {
                self.logger.error(
                    "cannot save the notification state; deliveries go on",
                    metadata: [SyncmonMetadataKey.statePath: "\(self.file.path)", SyncmonMetadataKey.reason: "\(error)"])
            }
        }
    }

    private func log(_ outcome: DeliveryOutcome, of message: NotificationMessage, at now: Timestamp) {
        var metadata: Logger.Metadata = [
            SyncmonMetadataKey.route: "\(message.route)", SyncmonMetadataKey.notificationEvent: "\(message.event)",
            SyncmonMetadataKey.notificationPairs: "\(message.pairs.count)",
        ]
        switch outcome {
        case .delivered:
            metadata[SyncmonMetadataKey.messageID] = MessageID.notificationSent.metadataValue
            self.logger.info("notification delivered", metadata: metadata)
        case .failed(let reason):
            guard self.failureLog.withLock({ $0.admit(1, at: now).log }) else { return }
            metadata[SyncmonMetadataKey.messageID] = MessageID.notificationFailed.metadataValue
            metadata[SyncmonMetadataKey.reason] = "\(reason)"
            self.logger.warning("notification delivery failed; it is tried again", metadata: metadata)
        }
    }

    /// Sleeps until `deadline` (forever when nil) or a change, but looks at most once per
    /// ``lookInterval`` after `last`.
    private func sleep(until deadline: Timestamp?, after last: Timestamp) async {
        let (clock, wake) = (self.clock, self.wake)
        let bounded = deadline.map { min($0, clock.wallTime().adding(Self.longestSleep)) }
        await withTaskGroup(of: Void.self) { group in
            if let bounded { group.addTask { try? await clock.sleep(until: bounded) } }
            group.addTask { await wake.wait() }
            await group.next()
            group.cancelAll()
        }
        try? await clock.sleep(until: last.adding(Self.lookInterval))
    }
}

/// One route as the metrics and `syncmon notify list` show it.
package struct NotificationRouteSnapshot: Sendable {
    package var name: String
    package var target: String
    /// Deliveries by `event outcome`.
    package var counts: [String: Int]
    package var owed: [RouteNotification]
    /// Pairs fired and not yet resolved.
    package var firing: Int
    package var lastSuccess: Timestamp?
}
