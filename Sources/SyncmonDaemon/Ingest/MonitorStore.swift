import SyncmonContract
import SyncmonCore
import SyncmonLock

/// The daemon's one `Monitor`, shared by every connection, the HTTP server and the timers.
///
/// A mutex around the pure state model: callers decode outside the lock and apply whole
/// batches under it; decisions come back as values (changes to log, rejections to report) that
/// the caller performs outside the lock.
package final class MonitorStore: Sendable {
    /// What the lock protects.
    private struct State: Sendable {
        var monitor: Monitor
        /// Non-blank lines received, by transport.
        var received = [UInt64](repeating: 0, count: Transport.allCases.count)
        /// Changed since the last save.
        var dirty = false
        /// When the oldest change not yet saved was made: the saver has it on disk within its
        /// budget of that moment.
        var dirtySince: Timestamp? = nil
        /// Bumped on every change, so the status line and saver know whether anything moved.
        var generation: UInt64 = 0
        /// When the evaluation service will next look (it sleeps until then).
        var scheduledLook = Timestamp.distantPast

        /// Whether the monitor now needs a look before the scheduled one (an event brought a
        /// deadline closer, or a change needs a look at once); if so, that is the new schedule.
        mutating func needsEarlierLook() -> Bool {
            guard self.monitor.nextLook < self.scheduledLook else { return false }
            self.scheduledLook = self.monitor.nextLook
            return true
        }

        /// A change made at `time`; the oldest unsaved one sets when the saver must write.
        mutating func markDirty(at time: Timestamp) {
            if !self.dirty || self.dirtySince.map({ time < $0 }) == true { self.dirtySince = time }
            self.dirty = true
        }
    }

    /// Whom a change under the lock must wake once the lock is released.
    private struct Wakes {
        var earlierLook = false
        var changed = false
        var dirtied = false
    }

    private let state: Locked<State>
    /// Wakes the evaluation service when a look falls due before the one it sleeps until.
    private let earlierLook = WakeUp()
    /// Wakes the notify service when the generation moves (`STATUS=` may have changed), so it
    /// sleeps between changes instead of looking every second.
    private let changed = WakeUp()
    /// Wakes the saver when the state turns dirty, so an idle saver sleeps instead of polling.
    private let dirtied = WakeUp()
    /// Wakes the notification routes when the generation moves (a summary may have changed).
    private let changedForNotifications = WakeUp()

    package init(configuration: MonitorConfiguration) {
        self.state = Locked(State(monitor: Monitor(configuration: configuration)))
    }

    /// What applying a batch decided; the caller logs it.
    package struct IngestOutcome: Sendable {
        package var changes: [StatusChange] = []
        package var rejections: [Rejection] = []
        package var engineLimitRejections = 0
        /// Engines whose events the peer was not allowed to send, for the log line.
        package var forbiddenEngines: [InlineName] = []
        /// What each `forget` removed: the pair it named (every database of the engine when
        /// `allDatabases`) and how many pairs went.
        package var forgotten: [(key: PairKey, allDatabases: Bool, count: Int)] = []
    }

    /// Applies a decoded batch received at `now` over `transport` (on push connection `connection`).
    ///
    /// Event times later than `now` are clamped to `now`: a host whose clock runs ahead must
    /// not make its phases look as if they started in the future.
    ///
    /// `peer` is the push connection's process: events for an engine whose policy does not
    /// allow it are rejected as `forbidden`.
    ///
    /// `asOneState` is for an adapter's snapshot (no peer): its events say how things stand at
    /// one moment, in an order of the adapter's making, so the verdicts are looked at once all
    /// are applied. A look between two of them would report a moment that never was: a
    /// restarted Syncthing's folder `no_network` between its `engineStarted` and the network
    /// its snapshot also gives.
    package func apply(
        _ batch: IngestBatch,
        transport: Transport,
        connection: UInt64?,
        peer: PeerCredentials? = nil,
        asOneState: Bool = false,
        now: Timestamp
    ) -> IngestOutcome {
        if asOneState { return self.applyAsOneState(batch, transport: transport, connection: connection, now: now) }
        var outcome = IngestOutcome()
        outcome.rejections = batch.rejections
        self.mutate { state in
            state.received[transport.rawValue] += UInt64(batch.lines)
            for rejection in batch.rejections { state.monitor.count(rejection) }
            var applied = false
            // In place, by position in the buffer: `for event in` would copy every event out of
            // the array, and so would passing `events[index]` by value (`apply(stored:)` says why).
            // Nothing writes to the events; the pointer is mutable only to hand them on `inout`.
            batch.withEvents { events in
                let stored = UnsafeMutableBufferPointer(mutating: events)
                for index in events.indices {
                    let time = min(events[index].statedTime ?? now, now)
                    switch state.monitor.apply(stored: &stored[index], at: time, connection: connection, peer: peer, lookingAt: now, changes: &outcome.changes)
                    {
                    case .applied:
                        applied = true
                    case .duplicate:
                        break
                    case .forgotten(let count):
                        if case .forget(let allDatabases) = events[index].payload { outcome.forgotten.append((events[index].pair, allDatabases, count)) }
                        if count > 0 { applied = true }
                    case .rejected(let rejection):
                        outcome.rejections.append(rejection)
                        if rejection.reason == .forbidden {
                            outcome.forbiddenEngines.append(events[index].engine)
                        } else {
                            outcome.engineLimitRejections += 1
                        }
                    }
                }
            }
            if applied {
                state.markDirty(at: now)
                state.generation &+= 1
            }
        }
        return outcome
    }

    /// `apply(_:transport:connection:peer:asOneState:now:)` for a snapshot: the pairs are
    /// looked at before the batch (what fell due meanwhile) and after it, not between its events.
    private func applyAsOneState(_ batch: IngestBatch, transport: Transport, connection: UInt64?, now: Timestamp) -> IngestOutcome {
        var outcome = IngestOutcome()
        outcome.rejections = batch.rejections
        self.mutate { state in
            state.received[transport.rawValue] += UInt64(batch.lines)
            for rejection in batch.rejections { state.monitor.count(rejection) }
            outcome.changes = state.monitor.changes(at: now)
            var applied = false
            // Not looked at event by event: the whole batch is looked at once, above and below.
            var unlooked: [StatusChange] = []
            batch.withEvents { events in
                let stored = UnsafeMutableBufferPointer(mutating: events)
                for index in events.indices {
                    let time = min(events[index].statedTime ?? now, now)
                    switch state.monitor.apply(stored: &stored[index], at: time, connection: connection, changes: &unlooked) {
                    case .applied: applied = true
                    case .forgotten(let count): applied = applied || count > 0
                    case .duplicate: break
                    case .rejected(let rejection):
                        outcome.rejections.append(rejection)
                        outcome.engineLimitRejections += 1
                    }
                }
            }
            outcome.changes += state.monitor.changes(at: now)
            if applied || !outcome.changes.isEmpty {
                state.markDirty(at: now)
                state.generation &+= 1
            }
        }
        return outcome
    }

    /// A push connection closed: its tied engines are down until heard from again.
    package func connectionClosed(_ connection: UInt64, now: Timestamp) -> [StatusChange] {
        self.change(at: now) { monitor in
            monitor.connectionClosed(connection)
            return true
        }
    }

    /// An adapter's source cannot reach its engine (`Monitor.sourceLost(_:connection:)`).
    /// Returns the verdict changes to log.
    package func sourceLost(_ engine: InlineName, connection: UInt64, now: Timestamp) -> [StatusChange] {
        self.change(at: now) { monitor in
            monitor.sourceLost(engine, connection: connection)
            return true
        }
    }

    /// A push connection closed after at most one line (`syncmon emit`): the engines it
    /// started are untied from it. Nothing to log; the state to save changed.
    package func connectionReleased(_ connection: UInt64, now: Timestamp) {
        self.mutate { state in
            guard state.monitor.connectionReleased(connection) else { return }
            state.markDirty(at: now)
            state.generation &+= 1
        }
    }

    /// A source cannot (`reason`) or again can (`nil`) see the pair's engine (docs/systemd-units.md: a
    /// unit systemd does not know): the pair reads `unknown` meanwhile. Returns the changes to log.
    package func setUnknown(_ key: PairKey, because reason: String?, now: Timestamp) -> [StatusChange] {
        self.change(at: now) { $0.setUnknown(key, because: reason, at: now) }
    }

    /// Changes the monitor outside an event (`change` says whether it did) and returns the
    /// verdict changes to log; the state is dirty only when a verdict moved.
    private func change(at now: Timestamp, _ change: (inout Monitor) -> Bool) -> [StatusChange] {
        self.mutate { state in
            guard change(&state.monitor) else { return [StatusChange]() }
            state.generation &+= 1
            let changes = state.monitor.changes(at: now)
            if !changes.isEmpty { state.markDirty(at: now) }
            return changes
        }
    }

    /// Runs `body` under the lock, then wakes whoever waits on what it changed: the evaluation
    /// service when a look fell due sooner, the notify service when the generation moved, the
    /// saver when the state turned dirty. Signalled outside the lock, so a woken task does not
    /// contend for it at once.
    private func mutate<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, wakes) = self.state.withLock { state in
            let (generation, dirty) = (state.generation, state.dirty)
            let result = body(&state)
            let wakes = Wakes(earlierLook: state.needsEarlierLook(), changed: state.generation != generation, dirtied: state.dirty && !dirty)
            return (result, wakes)
        }
        if wakes.earlierLook { self.earlierLook.signal() }
        if wakes.changed { self.changed.signal() }
        if wakes.changed { self.changedForNotifications.signal() }
        if wakes.dirtied { self.dirtied.signal() }
        return result
    }

    /// The host's view of its network changed (docs/operations.md, "Host network view"): pairs
    /// whose engine never reported its network take it. Returns the verdict changes to log.
    package func setHostNetwork(_ status: NetworkStatus, now: Timestamp) -> [StatusChange] {
        self.mutate { state in
            guard status != state.monitor.hostNetwork else { return [StatusChange]() }
            let changes = state.monitor.setHostNetwork(status, at: now)
            // Stall clocks may have restarted (the host is back): worth saving.
            state.markDirty(at: now)
            state.generation &+= 1
            return changes
        }
    }

    /// Time-driven changes (stalls crossing their threshold, missed heartbeats), for the
    /// evaluation service, and when it must look next: the monitor's next deadline, or `latest`
    /// if that comes first. The service sleeps until then unless ``waitForEarlierLook()``
    /// returns first.
    package func look(at now: Timestamp, latest: Timestamp) -> (changes: [StatusChange], next: Timestamp) {
        // Through `mutate`: changes found here are the notify service's and the saver's news too.
        self.mutate { state in
            let changes = state.monitor.changes(at: now)
            if !changes.isEmpty {
                state.markDirty(at: now)
                state.generation &+= 1
            }
            state.scheduledLook = min(state.monitor.nextLook, latest)
            return (changes, state.scheduledLook)
        }
    }

    /// Returns once a change needs a look before the time the last ``look(at:latest:)`` gave
    /// (at once if one came since).
    package func waitForEarlierLook() async {
        await self.earlierLook.wait()
    }

    /// Returns once the generation moved since the last call returned (at once if it did
    /// meanwhile), or when the task is cancelled: the notify service's cue to look at `STATUS=`.
    package func waitForChange() async {
        await self.changed.wait()
    }

    /// As ``waitForChange()``, for the notification service (a waiter of its own).
    package func waitForChangeForNotifications() async {
        await self.changedForNotifications.wait()
    }

    /// Returns once the state turned dirty since the last call returned (at once if it did
    /// meanwhile), or when the task is cancelled: the saver's cue while it has nothing to save.
    package func waitForDirty() async {
        await self.dirtied.wait()
    }

    /// A copy of the state model (cheap: its storage is shared until written), for rendering
    /// metrics and status outside the lock.
    package func snapshot() -> (monitor: Monitor, received: [UInt64], generation: UInt64) {
        self.state.withLock { ($0.monitor, $0.received, $0.generation) }
    }

    package var generation: UInt64 { self.state.withLock { $0.generation } }

    /// Marks the state as not yet persisted (a save failed), so the next save writes it;
    /// `since` is when its oldest change was made.
    package func markDirty(since: Timestamp) {
        self.mutate { $0.markDirty(at: since) }
    }

    /// When the oldest unsaved change was made; `nil` when everything is saved.
    package var dirtySince: Timestamp? { self.state.withLock { $0.dirty ? $0.dirtySince : nil } }

    /// Takes the state to persist, and when its oldest change was made, if it changed since
    /// the last call.
    package func takeDirty() -> (monitor: Monitor, since: Timestamp)? {
        self.state.withLock { state in
            guard state.dirty, let since = state.dirtySince else { return nil }
            state.dirty = false
            state.dirtySince = nil
            return (state.monitor, since)
        }
    }

    /// A canary's status at `now` and the cycles it completed (docs/canary.md); returns
    /// whether its pair's engine could not have synced (nothing is late then).
    package func canary(_ key: PairKey, _ status: CanaryStatus, cycles: [(phase: Phase, at: Timestamp)], now: Timestamp) -> Bool {
        self.mutate { state in
            let existed = state.monitor.pairs[key] != nil
            state.monitor.setCanary(key, status, at: now)
            var changed = !existed
            for cycle in cycles where state.monitor.canaryCycle(key, cycle.phase, at: cycle.at) { changed = true }
            if changed {
                state.markDirty(at: now)
                state.generation &+= 1
            }
            return state.monitor.isSuppressed(key, at: now)
        }
    }

    /// Puts persisted pairs, saved at `savedAt`, back with their histories as the daemon starts at `start`.
    package func restore(_ pairs: [PairKey: PairState], histories: [PairKey: PairHistory] = [:], savedAt: Timestamp, start: Timestamp) {
        self.mutate { state in
            for (key, pair) in pairs {
                state.monitor.restore(key, pair, history: histories[key] ?? PairHistory(), savedAt: savedAt, start: start)
            }
        }
    }

    /// Applies a reloaded configuration.
    package func reconfigure(_ configuration: MonitorConfiguration) {
        self.mutate { state in
            state.monitor.configuration = configuration
            state.generation &+= 1
        }
    }

    /// Checks that the lock can be taken: the watchdog's view of "the state model is not stuck".
    package func isResponsive() -> Bool {
        self.state.withLock { _ in true }
    }
}
