import SyncmonCore

/// An event accepted into a client's queue, with the `seq` and `time` it was given when the
/// engine reported it.
struct QueuedEvent: Sendable {
    var sequence: Int64
    var time: Timestamp
    var event: EngineEvent
}

/// Everything a ``SyncmonClient`` shares between the callers' threads and its connection task,
/// kept behind one lock.
///
/// Each operation is a short mutation that returns what the caller must do once the lock is
/// released (resume a parked task, write a log line), so no lock is held across I/O or a resume.
struct ClientState: Sendable {
    /// The connection task, parked until something happens.
    struct Parked: Sendable {
        var continuation: CheckedContinuation<Void, Never>
        /// Whether a newly queued event wakes it (waiting for work) or only a stop or an alarm
        /// does (waiting out a reconnect delay).
        var wakesOnWork: Bool
    }

    /// What `enqueue` asks the caller to do after unlocking.
    struct EnqueueAction {
        /// The parked connection task to resume: there is work now.
        var resume: CheckedContinuation<Void, Never>?
        /// Drops to report in a log line now (at most one line per drop-log interval).
        var dropsToLog: Int?
    }

    /// Events waiting for the connection.
    var queue = RingBuffer<QueuedEvent>()
    /// The most events `queue` holds; more are dropped.
    let capacity: Int
    /// The `seq` of the next event. Dropped events use up a number too, so the daemon sees the
    /// loss as a gap.
    var nextSequence: Int64

    var enqueued = 0
    var sent = 0
    var dropped = 0
    var connections = 0
    var connected = false

    /// `run()` is executing.
    var running = false
    /// A graceful stop was asked for (`finish()` or the service group's graceful shutdown).
    var stopRequested = false
    /// The connection task, when it waits.
    var parked: Parked?
    /// A wake-up that found nothing parked: the next `park` returns at once.
    var alarm = false
    /// The shutdown-deadline task, waiting for a stop request.
    var stopWatcher: CheckedContinuation<Void, Never>?
    /// The shutdown-deadline task was cancelled before it parked.
    var stopWatcherCancelled = false

    /// The latest account status reported, re-announced after a reconnect.
    var accountStatus: AccountStatus?
    /// The latest network availability reported, re-announced after a reconnect.
    var networkAvailable: Bool?

    /// Drops not yet reported in a log line.
    var unloggedDrops = 0
    /// When the latest drop log line was written.
    var lastDropLog: ContinuousClock.Instant?
    let dropLogInterval: Duration

    init(capacity: Int, firstSequence: Int64, dropLogInterval: Duration) {
        self.capacity = max(1, capacity)
        self.nextSequence = firstSequence
        self.dropLogInterval = dropLogInterval
    }

    /// Queues `event` or, when the queue is full, drops and counts it.
    mutating func enqueue(_ event: EngineEvent, time: Timestamp) -> EnqueueAction {
        let sequence = self.nextSequence
        self.nextSequence &+= 1
        guard self.queue.count < self.capacity else {
            self.dropped += 1
            self.unloggedDrops += 1
            let now = ContinuousClock.now
            if let last = self.lastDropLog, last.duration(to: now) < self.dropLogInterval { return EnqueueAction() }
            self.lastDropLog = now
            defer { self.unloggedDrops = 0 }
            return EnqueueAction(dropsToLog: self.unloggedDrops)
        }
        self.queue.append(QueuedEvent(sequence: sequence, time: time, event: event))
        self.enqueued += 1
        switch event {
        case .accountStatus(let status): self.accountStatus = status
        case .networkStatus(let available): self.networkAvailable = available
        default: break
        }
        guard let parked = self.parked, parked.wakesOnWork else { return EnqueueAction() }
        self.parked = nil
        return EnqueueAction(resume: parked.continuation)
    }

    /// Parks the connection task; `false` means "do not wait, resume at once" (something it
    /// would wait for already happened).
    mutating func park(_ continuation: CheckedContinuation<Void, Never>, wakesOnWork: Bool) -> Bool {
        if self.alarm {
            self.alarm = false
            return false
        }
        if self.stopRequested || (wakesOnWork && !self.queue.isEmpty) { return false }
        self.parked = Parked(continuation: continuation, wakesOnWork: wakesOnWork)
        return true
    }

    /// Wakes the connection task whatever it waits for (a timer fired, the connection closed,
    /// the task was cancelled); when it is not parked, its next `park` returns at once.
    mutating func wake() -> CheckedContinuation<Void, Never>? {
        guard let parked = self.parked else {
            self.alarm = true
            return nil
        }
        self.parked = nil
        return parked.continuation
    }

    /// Asks for a graceful stop; returns the tasks to resume.
    mutating func requestStop() -> [CheckedContinuation<Void, Never>] {
        self.stopRequested = true
        var resumed: [CheckedContinuation<Void, Never>] = []
        if let parked = self.parked { resumed.append(parked.continuation) }
        if let watcher = self.stopWatcher { resumed.append(watcher) }
        self.parked = nil
        self.stopWatcher = nil
        return resumed
    }

    /// Parks the shutdown-deadline task until a stop is requested; `false` means "resume at once".
    mutating func watchForStop(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        if self.stopRequested || self.stopWatcherCancelled { return false }
        self.stopWatcher = continuation
        return true
    }

    /// The shutdown-deadline task was cancelled: returns it if it is parked.
    mutating func cancelStopWatch() -> CheckedContinuation<Void, Never>? {
        guard let watcher = self.stopWatcher else {
            self.stopWatcherCancelled = true
            return nil
        }
        self.stopWatcher = nil
        return watcher
    }

    /// The events at the front of the queue, left in place until `markSent` (a failed write
    /// sends them again on the next connection; their `seq` lets the daemon drop any it has).
    func nextBatch(maximum: Int) -> [QueuedEvent] {
        self.queue.prefix(maximum)
    }

    /// The front `count` events reached the socket.
    mutating func markSent(_ count: Int) {
        self.queue.removeFirst(count)
        self.sent += count
    }

    var statistics: SyncmonClient.Statistics {
        SyncmonClient.Statistics(
            enqueued: self.enqueued,
            sent: self.sent,
            dropped: self.dropped,
            queued: self.queue.count,
            connections: self.connections,
            connected: self.connected
        )
    }
}
