import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SyncmonCore
import SyncmonHost
import SyncmonLock

// The connection task: connect, greet, write the queue, heartbeat, reconnect, stop gracefully.
extension SyncmonClient {
    /// How one connection ended.
    enum ConnectionOutcome {
        /// A graceful stop completed: everything queued was written and `engineStopped` sent.
        case stopped
        /// The connection was lost (or could not be used) after `lifetime`.
        case lost(lifetime: Duration, error: any Error)
    }

    /// The connection closed under the writer.
    struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the daemon closed the connection" }
    }

    /// The most queued events written in one batch.
    static let batchSize = 256

    /// Runs the connection until a graceful stop completes (or times out) or the task is
    /// cancelled. Call it once at a time (put the client in a `ServiceGroup`, or run it in a
    /// task); it throws ``SyncmonClientError/alreadyRunning`` otherwise.
    public func run() async throws {
        let claimed = self.state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.stopWatcherCancelled = false
            state.alarm = false
            return true
        }
        guard claimed else { throw SyncmonClientError.alreadyRunning }
        defer {
            self.state.withLock { state in
                state.running = false
                state.connected = false
                state.stopRequested = false
            }
        }
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.connectionLoop() }
                group.addTask { await self.enforceShutdownTimeout() }
                await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.finish()
        }
        let (left, stopping) = self.state.withLock { ($0.queue.count, $0.stopRequested) }
        if left > 0 {
            self.logger.warning(
                stopping ? "syncmon client stopped before delivering every event" : "syncmon client cancelled with events still queued",
                metadata: ["syncmon.queued": "\(left)"]
            )
        }
    }

    /// Connects, serves the connection, and reconnects after a delay, until stopped or cancelled.
    private func connectionLoop() async {
        var delay = ReconnectDelay(
            minimum: self.configuration.minimumReconnectDelay,
            maximum: self.configuration.maximumReconnectDelay
        )
        var failuresInARow = 0
        while !Task.isCancelled {
            let stopping = self.state.withLock { $0.stopRequested }
            do {
                let channel = try await self.connect()
                failuresInARow = 0
                switch await self.serve(channel) {
                case .stopped:
                    return
                case .lost(let lifetime, let error):
                    if Task.isCancelled { return }
                    self.logger.warning(
                        "Lost the connection to the syncmon daemon; reconnecting",
                        metadata: Self.failureMetadata(socket: self.configuration.socketPath, error)
                    )
                    // A connection that lasted was healthy: start the backoff afresh.
                    if lifetime >= .seconds(1) { delay.reset() }
                    // That was the warning: failing reconnects are logged at debug level.
                    failuresInARow = 1
                }
            } catch {
                if Task.isCancelled { return }
                failuresInARow += 1
                // The first failure is worth a warning; the retries that follow are not.
                self.logger.log(
                    level: failuresInARow == 1 ? .warning : .debug,
                    "Cannot reach the syncmon daemon; events are queued and the client keeps retrying",
                    metadata: Self.failureMetadata(socket: self.configuration.socketPath, error)
                )
            }
            // A stop with no daemon to tell: one attempt was made, what is queued stays queued.
            if stopping { return }
            await self.pause(until: .now + delay.next(), wakesOnWork: false)
        }
    }

    /// Opens a connection to the push socket.
    private func connect() async throws -> any Channel {
        try await ClientBootstrap(group: self.configuration.eventLoopGroup)
            .connectTimeout(.seconds(5))
            .connect(unixDomainSocketPath: self.configuration.socketPath)
            .get()
    }

    /// Greets the daemon and writes until the connection is lost or a graceful stop completes.
    private func serve(_ channel: any Channel) async -> ConnectionOutcome {
        let opened = ContinuousClock.now
        channel.closeFuture.whenComplete { _ in self.wakeConnectionTask() }
        do {
            let outcome = try await withTaskCancellationHandler {
                try await self.write(on: channel)
            } onCancel: {
                channel.close(promise: nil)
            }
            self.state.withLock { $0.connected = false }
            return outcome
        } catch {
            channel.close(promise: nil)
            self.state.withLock { $0.connected = false }
            return .lost(lifetime: opened.duration(to: .now), error: error)
        }
    }

    /// The writer for one connection.
    private func write(on channel: any Channel) async throws -> ConnectionOutcome {
        let (isReconnect, account, network) = self.state.withLock { state in
            state.connections += 1
            return (state.connections > 1, state.accountStatus, state.networkAvailable)
        }
        // `engineStarted` (`runStarted` for a batch run) ties the engine to this connection
        // (docs/protocol.md, "Liveness"). It and the other lines the client writes by itself
        // carry no `seq`: queued events written after them may be older, and a `seq` here would
        // make the daemon drop those as duplicates.
        var greeting: [EngineEvent] = [self.openingEvent]
        if isReconnect {
            // A restarted daemon starts setup again at engineStarted; the conditions it knew are
            // announced again so that it does not wait for the next change.
            if let account { greeting.append(.accountStatus(account)) }
            if let network { greeting.append(.networkStatus(available: network)) }
        }
        try await self.writeOwnLines(greeting, on: channel)
        self.state.withLock { $0.connected = true }
        self.logger.info(
            isReconnect ? "Reconnected to the syncmon daemon" : "Connected to the syncmon daemon",
            metadata: ["syncmon.socket": "\(self.configuration.socketPath)"]
        )

        let heartbeat = self.configuration.automaticHeartbeats ? self.configuration.heartbeatInterval : nil
        var nextHeartbeat = heartbeat.map { ContinuousClock.now + $0 }
        while true {
            guard channel.isActive else { throw ConnectionClosed() }
            if let due = nextHeartbeat, let interval = heartbeat, ContinuousClock.now >= due {
                try await self.writeOwnLines([.heartbeat], on: channel)
                nextHeartbeat = max(due + interval, .now)
            }
            let batch = self.state.withLock { $0.nextBatch(maximum: Self.batchSize) }
            if !batch.isEmpty {
                var buffer = channel.allocator.buffer(capacity: batch.count * 192)
                for queued in batch {
                    for line in self.renderer.lines(for: queued.event, time: queued.time, sequence: queued.sequence) {
                        buffer.writeString(line)
                        buffer.writeInteger(UInt8(ascii: "\n"))
                    }
                }
                // One batch in flight at a time: the next is rendered once this one reached the
                // socket, so a slow daemon holds events in the bounded queue, not in NIO.
                try await channel.writeAndFlush(buffer).get()
                self.state.withLock { $0.markSent(batch.count) }
                continue
            }
            if self.state.withLock({ $0.stopRequested }) {
                try await self.writeOwnLines([self.closingEvent], on: channel)
                // Close our side and wait for the daemon to close its own: it then has read
                // every line (the shutdown timeout bounds the wait).
                try? await channel.close(mode: .output).get()
                try? await channel.closeFuture.get()
                self.logger.info("Stopped reporting to the syncmon daemon")
                return .stopped
            }
            await self.pause(until: nextHeartbeat, wakesOnWork: true)
        }
    }

    /// The line that opens every connection: it states the heartbeat promise and ties the
    /// engine to the connection.
    var openingEvent: EngineEvent {
        let interval = self.configuration.heartbeatInterval
        let version = self.configuration.version
        switch self.configuration.lifecycle {
        case .engine: return .engineStarted(heartbeatInterval: interval, version: version)
        case .batchRun: return .runStarted(heartbeatInterval: interval, version: version)
        }
    }

    /// The last line of a graceful stop: a stopped engine, or a run that is over.
    var closingEvent: EngineEvent {
        self.configuration.lifecycle == .engine ? .engineStopped : .runEnded
    }

    /// Writes lines the client produces itself (timed now, without `seq`).
    private func writeOwnLines(_ events: [EngineEvent], on channel: any Channel) async throws {
        let now = WallClock.now()
        var buffer = channel.allocator.buffer(capacity: events.count * 160)
        for event in events {
            buffer.writeString(self.renderer.line(for: event, time: now, sequence: nil))
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        try await channel.writeAndFlush(buffer).get()
    }

    /// Waits until `deadline`, a wake-up, a stop request, or (with `wakesOnWork`) a queued event.
    private func pause(until deadline: ContinuousClock.Instant?, wakesOnWork: Bool) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.park(wakesOnWork: wakesOnWork) }
            if let deadline {
                group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Parks the connection task until woken; cancellation wakes it.
    private func park(wakesOnWork: Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let parked = self.state.withLock { $0.park(continuation, wakesOnWork: wakesOnWork) }
                if !parked { continuation.resume() }
            }
        } onCancel: {
            self.wakeConnectionTask()
        }
    }

    private func wakeConnectionTask() {
        self.state.withLock { $0.wake() }?.resume()
    }

    /// Returns `shutdownTimeout` after a stop request, which ends `run()` if the graceful stop
    /// has not finished by then; returns early when cancelled.
    private func enforceShutdownTimeout() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let parked = self.state.withLock { $0.watchForStop(continuation) }
                if !parked { continuation.resume() }
            }
        } onCancel: {
            self.state.withLock { $0.cancelStopWatch() }?.resume()
        }
        guard !Task.isCancelled else { return }
        try? await Task.sleep(for: self.configuration.shutdownTimeout)
    }
}

extension SyncmonClient {
    /// The socket and the error, and the errno when the error is a system call's, so that a log
    /// handler can say what to do ("no such file": the daemon is not running) in its own words.
    static func failureMetadata(socket: String, _ error: any Error) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["syncmon.socket": "\(socket)", "error": "\(error)"]
        if let code = (error as? IOError)?.errnoCode { metadata["syncmon.errno"] = "\(code)" }
        return metadata
    }
}
