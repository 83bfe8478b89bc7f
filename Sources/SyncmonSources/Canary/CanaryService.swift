import Logging
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonSystemd

/// Runs every configured canary (docs/canary.md): writes each host file every interval,
/// reads peers at least every interval and as soon as inotify says a peer's file changed,
/// and hands each canary's status to the state model, where `canary_late` is a stall.
///
/// One service for all canaries, each a ``CanaryRunner`` whose failures stay its own.
package struct CanaryService: Service {
    let canaries: [(key: PairKey, configuration: CanaryConfiguration)]
    let model: any SourceStateModel
    let clock: any ServiceClock
    let stateDirectory: String
    let logger: Logger

    package init(
        canaries: [(key: PairKey, configuration: CanaryConfiguration)],
        model: any SourceStateModel,
        clock: any ServiceClock,
        stateDirectory: String,
        logger: Logger
    ) {
        self.canaries = canaries
        self.model = model
        self.clock = clock
        self.stateDirectory = stateDirectory
        self.logger = logger
    }

    package func run() async throws {
        let inotify = InotifyWatch()
        if inotify == nil { self.logger.warning("canaries: inotify unavailable; peers are read every interval only") }
        inotify?.start()
        defer { inotify?.stop() }
        // The canaries' file I/O leaves Swift's cooperative pool: a canary folder may be a FUSE
        // or network mount whose calls block.
        let files: BlockingThread?
        do {
            files = try BlockingThread()
        } catch {
            files = nil
            self.logger.warning("canaries: no thread of their own; files are read in the service's task", metadata: [SyncmonMetadataKey.reason: "\(error)"])
        }
        await cancelWhenGracefulShutdown {
            let (canaries, stateDirectory, model, logger) = (self.canaries, self.stateDirectory, self.model, self.logger)
            let started = self.clock.monotonicTime()
            var runners = await Self.perform(on: files) {
                canaries.map { CanaryRunner(key: $0.key, configuration: $0.configuration, stateDirectory: stateDirectory, startedAt: started) }
            }
            while !Task.isCancelled {
                let now = self.clock.moment()
                let changes = inotify?.take() ?? InotifyWatch.Changes()
                let current = runners
                let look = await Self.perform(on: files) {
                    Self.look(current, at: now, changes: changes, inotify: inotify, model: model, logger: logger)
                }
                runners = look.runners
                await self.sleep(until: look.next, inotify: inotify)
            }
        }
        await files?.stop()
    }

    /// One look at every canary at `now`; the runners as they are after it, and when the next
    /// look is due.
    private static func look(
        _ runners: [CanaryRunner], at now: CanaryMoment, changes: InotifyWatch.Changes, inotify: InotifyWatch?, model: any SourceStateModel, logger: Logger
    ) -> (runners: [CanaryRunner], next: MonotonicInstant) {
        var runners = runners
        var next = MonotonicInstant(microseconds: .max)
        for index in runners.indices {
            if let watch = runners[index].watch, changes.gone.contains(watch) { runners[index].watch = nil }
            let changed = runners[index].watch.map(changes.changed.contains) ?? false
            let suppressed = model.isSuppressed(runners[index].key, at: now.wall)
            runners[index].step(at: now, changed: changed, suppressed: suppressed, inotify: inotify, model: model, logger: logger)
            next = min(next, runners[index].canary.nextDeadline(after: now.monotonic))
        }
        return (runners, next)
    }

    /// Runs `body` on the file thread, or here when there is none.
    private static func perform<Result: Sendable>(on thread: BlockingThread?, _ body: @escaping @Sendable () -> Result) async -> Result {
        if let thread, let result = await thread.run({ _ in body() }) { return result }
        return body()
    }

    /// Sleeps until `deadline`, or until a peer's file changes.
    private func sleep(until deadline: MonotonicInstant, inotify: InotifyWatch?) async {
        let clock = self.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: deadline) }
            if let inotify { group.addTask { await inotify.wait() } }
            await group.next()
            group.cancelAll()
        }
    }
}
