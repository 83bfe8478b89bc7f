import Logging
import SyncmonAdapters
import SyncmonContract
import SyncmonCore
import SyncmonHost
import SyncmonLock
import SyncmonRules
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// The thread of one `unit:` source: the bus, the journal, the tracker and the rules, until stopped.
final class UnitFollower {
    private let source: UnitSource
    private let context: SourceContext
    private let wake: WakeDescriptor
    /// Event and stall times, and the tracker's recovery clock: the daemon's, or a test's.
    private let clock: any ServiceClock
    private let ingest: any SourceIngest
    private let connection: UInt64
    private var tracker = UnitTracker()
    private var mapper: UnitEventMapper
    private var snapshot = UnitSnapshot(activeState: .inactive, subState: .dead)
    private var journal: UnitJournalReader? = nil
    private let cursorFile: SourceStateFile<JournalCursorDocument>
    private var limitHits = 0

    init(source: UnitSource, context: SourceContext, wake: WakeDescriptor, clock: any ServiceClock) {
        self.source = source
        self.context = context
        self.wake = wake
        self.clock = clock
        // The pair is tied to a connection id of this source's own, so a failed service can be
        // marked down (the tie closed) as a push engine's lost connection is.
        self.connection = SourceContext.connectionID(for: "unit:" + context.name)
        self.ingest = context.makeIngest(connection: self.connection)
        self.mapper = UnitEventMapper(engine: InlineName(context.name) ?? InlineName(), database: source.database, phases: source.phases)
        self.cursorFile = SourceStateFile(stateDirectory: context.stateDirectory, name: context.name, suffix: "cursor")
    }

    /// The wake descriptor was written: the source is stopping.
    private var wokenBefore = false

    /// Follows until the wake descriptor is written.
    func run() {
        var backoff = ReconnectBackoff.standard
        var failures = 0
        while !self.wokenBefore {
            let bus: any UnitManagerBus
            do {
                bus = try self.source.connect(self.source.manager)
            } catch {
                failures += 1
                self.waitForWake(milliseconds: self.managerUnreachable(error, failures: failures, backoff: &backoff))
                continue
            }
            self.setManagerAbsent(false)
            do {
                try bus.subscribe()
                let service = try self.resolveService(bus)
                let path = try bus.loadUnit(service)
                try bus.watch(path: path)
                try bus.watchLoads(of: service)
                // Before "connected": from then on nothing the unit logs is missed.
                try self.look(bus, unit: service, path: path)
                self.context.health.connected("systemd \(self.source.manager.label): \(service)")
                if failures > 0 { backoff.reset() }
                failures = 0
                try self.follow(bus, path: path, unit: service)
            } catch {
                failures += 1
                let delay = backoff.nextDelay()
                self.context.health.disconnected("\(error)", retryIn: delay)
                if failures > 1 { self.context.health.countReconnect() }
                self.waitForWake(milliseconds: Int32(delay * 1000))
            }
        }
    }

    /// The manager's bus could not be opened; returns how long to wait before trying again.
    /// A user manager that does not run (linger off, nobody logged in) is no failure of the
    /// engine: the pair is `unknown` (`user-manager-absent`) and the socket is looked for again
    /// every few seconds, so that the manager's start is seen within seconds without a busy loop.
    private func managerUnreachable(_ error: SystemdError, failures: Int, backoff: inout ReconnectBackoff) -> Int32 {
        let delay: Double
        if self.source.manager == .system {
            delay = backoff.nextDelay()
        } else {
            delay = UserManagerRetry.standard.delay(after: failures)
            if !self.managerAbsent {
                self.context.logger.warning(
                    "unit source: the user manager does not run; the pair is unknown until it starts",
                    metadata: self.context.metadata.merging(
                        ["syncmon.manager": "\(self.source.manager.label)", "syncmon.unit": "\(self.source.unit)", "error": "\(error)"],
                        uniquingKeysWith: { $1 })
                )
            }
            self.setManagerAbsent(true)
        }
        self.context.health.disconnected("\(error)", retryIn: delay)
        if failures > 1 { self.context.health.countReconnect() }
        return Int32(delay * 1000)
    }

    /// Whether the pair is `unknown` for want of its user manager, changed only when it changes.
    private var managerAbsent = false

    private func setManagerAbsent(_ absent: Bool) {
        guard absent != self.managerAbsent else { return }
        self.managerAbsent = absent
        let pair = PairKey(engine: self.mapper.engine, database: self.mapper.database)
        self.context.model.setUnknown(pair, because: absent ? Self.managerAbsentReason : nil, now: self.clock.wallTime())
    }

    /// The `unknown` reason of a pair whose user manager does not run (docs/user-sessions.md).
    static let managerAbsentReason = "user-manager-absent"

    /// A `.timer` is followed through the service it activates.
    private func resolveService(_ bus: any UnitManagerBus) throws(SystemdError) -> String {
        guard self.source.unit.hasSuffix(".timer") else { return self.source.unit }
        let path = try bus.loadUnit(self.source.unit)
        if case .string(let service) = try bus.properties(path: path, interface: "org.freedesktop.systemd1.Timer")["Unit"] ?? .other,
            !service.isEmpty
        {
            return service
        }
        return String(self.source.unit.dropLast(".timer".count)) + ".service"
    }

    /// Reads the unit at `path`: its state first (its lines count only while it is up), then the journal.
    private func look(_ bus: any UnitManagerBus, unit: String, path: String) throws(SystemdError) {
        self.snapshot = try self.read(bus, path: path)
        self.apply(self.tracker.observe(self.snapshot, at: self.clock.wallTime()), unit: unit)
        if self.source.rules != nil, self.journal == nil { self.openJournal(bus, unit: unit, path: path) }
    }

    /// A unit systemd did not know may be loaded now (docs/systemd-units.md): after a `daemon-reload` it is
    /// loaded again; after a `UnitNew` only read if systemd still has it. Loading it there would
    /// make another object, announced by another `UnitNew`, for a unit that is still missing:
    /// a loop.
    private func lookAgain(_ bus: any UnitManagerBus, unit: String, after news: SystemdBus.LoadNews) throws(SystemdError) {
        if news.reloaded {
            try self.look(bus, unit: unit, path: try bus.loadUnit(unit))
        } else if news.announced, let path = bus.loadedUnit(unit) {
            try self.look(bus, unit: unit, path: path)
        }
    }

    private func read(_ bus: any UnitManagerBus, path: String) throws(SystemdError) -> UnitSnapshot {
        var snapshot = UnitSnapshot(activeState: .inactive, subState: .dead)
        snapshot.merge(try bus.properties(path: path, interface: "org.freedesktop.systemd1.Unit"))
        if snapshot.loadState == .loaded {
            snapshot.merge(try bus.properties(path: path, interface: "org.freedesktop.systemd1.Service"))
        }
        return snapshot
    }

    /// Waits on the bus, the journal and the wake descriptor; returns when woken, throws when the bus is gone.
    private func follow(_ bus: any UnitManagerBus, path: String, unit: String) throws(SystemdError) {
        while true {
            // Drained before each wait: signals that came in while a method call waited for its
            // reply are already read off the socket, and polling it would not see them.
            // Until nothing is left: reading a job's type is a call, during which more signals come in.
            var changes = try bus.process()
            var loads = bus.takeLoadNews()
            while !changes.isEmpty || !loads.isEmpty {
                for change in changes where change.path == path { self.take(change, bus: bus, unit: unit) }
                if self.tracker.state == .notLoaded { try self.lookAgain(bus, unit: unit, after: loads) }
                changes = try bus.process()
                loads = bus.takeLoadNews()
            }
            var descriptors = [
                pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0),
                pollfd(fd: self.journal?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            switch self.wake.poll(&descriptors, timeout: self.pollTimeout()) {
            case .woken:
                self.wokenBefore = true
                return
            case .failed(let failure):
                throw SystemdError(operation: failure.operation, errno: failure.code)
            case .ready, .timedOut:
                break
            }
            if descriptors[1].revents != 0 { self.readJournal(bus, unit: unit, path: path) }
            self.apply(self.tracker.tick(at: self.clock.wallTime()), unit: unit)
        }
    }

    /// poll(2)'s timeout: until the tracker's next deadline (a failed service's grace, a
    /// restarted one's recovery) in whole milliseconds rounded up, at most the evaluation's
    /// longest sleep (the deadline is real time, poll's wait is not, so a step of the host's
    /// clock is noticed within that); -1 when only news can change anything. It used to be a
    /// second whenever a failure was outstanding, however long the service stayed down.
    private func pollTimeout() -> Int32 {
        guard let deadline = self.tracker.nextTick() else { return -1 }
        let left = min(deadline.since(self.clock.wallTime()), TimeSpan.longestSleep)
        return Int32(max(1, (left.microseconds + 999) / 1000))
    }

    /// One `PropertiesChanged` of the unit: merged, logged at debug, observed.
    private func take(_ change: SystemdBus.Change, bus: any UnitManagerBus, unit: String) {
        self.snapshot.merge(change.values)
        if let job = change.values["Job"], case .job(let id, _) = job, id != 0 {
            self.snapshot.jobType = self.jobType(bus, job: job)
        }
        self.context.logger.debug(
            "unit source \(self.context.name): \(unit): \(self.snapshot.activeState)/\(self.snapshot.subState) result \(self.snapshot.result) status \(self.snapshot.execMainStatus) restarts \(self.snapshot.restarts) job \(self.snapshot.jobType ?? "-")",
            metadata: self.context.metadata
        )
        self.apply(self.tracker.observe(self.snapshot, at: self.clock.wallTime()), unit: unit)
    }

    private func jobType(_ bus: any UnitManagerBus, job: BusValue) -> String {
        guard case .job(_, let path) = job, case .string(let type)? = try? bus.properties(path: path, interface: "org.freedesktop.systemd1.Job")["JobType"]
        else { return "unknown" }
        return type
    }

    private func apply(_ actions: [UnitAction], unit: String) {
        let now = self.clock.wallTime()
        let pair = PairKey(engine: self.mapper.engine, database: self.mapper.database)
        for action in actions {
            var runLastLine: String?? = nil
            if case .cycleEnded = action { runLastLine = self.takeRunLines(unit: unit) }
            let failure: UnitFailure?
            switch action {
            case .down(let failed), .failing(let failed): failure = failed
            case .cycleEnded(_, _, let failed): failure = failed
            default: failure = nil
            }
            // A failure's message is the last line the unit logged before it ended (docs/systemd-units.md).
            var last: String? = nil
            if let failure {
                last = runLastLine ?? self.lastLine(of: unit)
                self.context.logger.warning(
                    "unit source \(self.context.name): \(unit) failed (\(failure.code)): \(last ?? "no journal line")",
                    metadata: self.context.metadata
                )
            }
            let effects = self.mapper.effects(of: action, oneshot: self.snapshot.isOneshot, at: now, message: last)
            if let notice = effects.notice {
                self.context.logger.notice("unit source \(self.context.name): \(unit): \(notice)", metadata: self.context.metadata)
            }
            switch effects.presence {
            case .missing(let reason): self.context.model.setUnknown(pair, because: reason, now: now)
            case .present: self.context.model.setUnknown(pair, because: nil, now: now)
            case nil: break
            }
            if effects.restarts > 0 { self.source.restarts.add(effects.restarts, for: pair) }
            self.ingest.apply(effects.events)
            if effects.markDown {
                self.context.model.connectionClosed(self.connection, now: now)
            }
        }
    }

    /// The last line the failed run's main process logged. journald stamps a line when it reads
    /// it, which on a busy machine is after systemd has reported the exit, and a crash-looping
    /// service's next run may have logged by then: the line is the process's own (`_PID`), and
    /// when its newest one is older than its exit, journald is given a moment to catch up.
    private func lastLine(of unit: String) -> String? {
        let exited = self.snapshot.mainExited.map { UInt64(clamping: $0.microseconds) }
        let line: [UInt8]?
        if let pid = self.snapshot.mainPID, let exited {
            line = UnitJournalReader.lastMessage(unit: unit, manager: self.source.manager, pid: pid, exited: exited)
        } else {
            // Without the process's id: the last entry received by shortly after the exit.
            line = UnitJournalReader.lastMessage(unit: unit, manager: self.source.manager, notAfter: exited.map { $0 &+ 50_000 })
        }
        return line.map { String(decoding: $0, as: UTF8.self) }
    }

    private func openJournal(_ bus: any UnitManagerBus, unit: String, path: String) {
        var cursor: String? = nil
        if case .success(let document)? = self.cursorFile.load(), document.unit == unit { cursor = document.cursor }
        do {
            let reader = try UnitJournalReader(unit: unit, cursor: cursor, manager: self.source.manager)
            if reader.gap {
                // Counted as a reopen, as a file source's rotation is (docs/systemd-units.md).
                self.context.health.countReconnect()
                self.context.logger.warning(
                    "unit source \(self.context.name): the journal no longer holds the entry it stopped at (rotated or vacuumed): going on from the oldest entry; lines in between are lost",
                    metadata: self.context.metadata
                )
            }
            self.journal = reader
            self.readJournal(bus, unit: unit, path: path)
        } catch {
            self.context.logger.warning("unit source \(self.context.name): cannot read the journal of \(unit): \(error)", metadata: self.context.metadata)
        }
    }

    /// Every new entry through the rules; the cursor saved after the batch.
    private func readJournal(_ bus: any UnitManagerBus, unit: String, path: String) {
        guard let batch = self.takeJournal(unit: unit) else { return }
        // Liveness is systemd's alone (docs/systemd-units.md): what a stopped or failed unit's journal still
        // says must not bring its pair back to life.
        if !batch.lines.isEmpty, !self.isAlive { self.refreshState(bus, unit: unit, path: path) }
        self.feed(batch, unit: unit)
    }

    /// A oneshot run ended: its lines go first, journald given a moment to read the last of them,
    /// so that the run's end finds the cycle they opened and the failure they ended it with. The
    /// other way round, a run whose lines only end a cycle (rclone bisync's "Must run --resync",
    /// after its exit was applied) read as a cycle of no length that succeeded.
    /// Returns the run's last line when it was looked for (`nil` when the unit's journal is not
    /// followed), so that a failed run's message needs no second wait.
    private func takeRunLines(unit: String) -> String?? {
        guard self.journal != nil else { return nil }
        let last = self.lastLine(of: unit)
        if let batch = self.takeJournal(unit: unit) { self.feed(batch, unit: unit) }
        return .some(last)
    }

    /// The events of the journal's new entries and the cursor after them.
    private struct JournalBatch {
        var lines: [UInt8] = []
        var cursor: String? = nil
        var read = 0
        var matched = 0
    }

    private func takeJournal(unit: String) -> JournalBatch? {
        guard let journal = self.journal, let rules = self.source.rules?.current else { return nil }
        journal.process()
        var batch = JournalBatch()
        while let entry = journal.next() {
            batch.cursor = entry.cursor
            batch.read += 1
            let line = JournalLine(
                bytes: entry.message,
                priority: RulePriority(rawValue: entry.priority) ?? .unstated,
                time: Timestamp(microseconds: Int64(clamping: entry.realtime))
            )
            let evaluation = rules.evaluate(line)
            if evaluation.limitExceeded > 0 { self.countLimitHit(rule: rules.origin) }
            if evaluation.match != nil { batch.matched += 1 }
            for event in evaluation.match?.events(engine: self.mapper.engine.description, database: self.mapper.database.description) ?? [] {
                batch.lines += Array(event.utf8)
                batch.lines.append(0x0A)
            }
        }
        return batch
    }

    /// Feeds a batch's events while the unit's lines count; saves the cursor after it.
    private func feed(_ batch: JournalBatch, unit: String) {
        if self.isAlive, !batch.lines.isEmpty { batch.lines.withUnsafeBytes { self.ingest.feed($0) } }
        if batch.read > 0 {
            self.context.logger.debug(
                "unit source \(self.context.name): \(batch.read) journal entries of \(unit), \(batch.matched) matched", metadata: self.context.metadata)
        }
        if let cursor = batch.cursor {
            try? self.cursorFile.save(JournalCursorDocument(unit: unit, cursor: cursor))
        }
    }

    /// Whether the unit's lines count: it is up, or a oneshot service.
    private var isAlive: Bool { self.tracker.isUp || self.snapshot.isOneshot }

    /// Reads the unit's state afresh before lines of a unit not seen up are dropped: a service
    /// that just started writes its first lines while systemd's signal that it runs may still be
    /// on its way over the bus, and dropping them with the cursor moved on loses them for good
    /// (one tick in sixty in the end-to-end test, now and then).
    private func refreshState(_ bus: any UnitManagerBus, unit: String, path: String) {
        guard let snapshot = try? self.read(bus, path: path) else { return }
        self.snapshot = snapshot
        self.apply(self.tracker.observe(snapshot, at: self.clock.wallTime()), unit: unit)
    }

    /// A line over the match limit: logged at the first and then every hundredth.
    private func countLimitHit(rule origin: String) {
        self.limitHits += 1
        if self.limitHits == 1 || self.limitHits % 100 == 0 {
            self.context.logger.warning(
                "unit source \(self.context.name): \(self.limitHits) journal lines over the match limit of \(origin) (taken as no match)",
                metadata: self.context.metadata
            )
        }
    }

    private func waitForWake(milliseconds: Int32) {
        if self.wake.sleep(milliseconds: milliseconds) { self.wokenBefore = true }
    }
}

extension UnitSnapshot {
    /// Takes the values a `GetAll` or a `PropertiesChanged` carried.
    mutating func merge(_ values: [String: BusValue]) {
        for (key, value) in values {
            switch (key, value) {
            case ("LoadState", .string(let text)): self.loadState = UnitLoadState(text)
            case ("ActiveState", .string(let text)): self.activeState = UnitActiveState(text)
            case ("SubState", .string(let text)): self.subState = UnitSubState(text)
            case ("Result", .string(let text)): self.result = UnitResult(text)
            case ("Type", .string(let text)): self.serviceType = text
            case ("ExecMainCode", .signed(let number)): self.execMainCode = Int32(clamping: number)
            case ("ExecMainStatus", .signed(let number)): self.execMainStatus = Int32(clamping: number)
            case ("NRestarts", .unsigned(let number)): self.restarts = UInt32(clamping: number)
            case ("Job", .job(let id, _)): self.jobType = id == 0 ? nil : (self.jobType ?? "unknown")
            case ("ExecStart", .program(let program)): self.program = program
            case ("ExecMainStartTimestamp", .unsigned(let micros)): self.mainStarted = micros == 0 ? nil : Timestamp(microseconds: Int64(clamping: micros))
            case ("ExecMainExitTimestamp", .unsigned(let micros)): self.mainExited = micros == 0 ? nil : Timestamp(microseconds: Int64(clamping: micros))
            case ("ExecMainPID", .unsigned(let pid)): self.mainPID = pid == 0 ? nil : UInt32(clamping: pid)
            default: break
            }
        }
    }
}
