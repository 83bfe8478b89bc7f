import Logging
import ServiceLifecycle
import SyncmonCore

/// Runs every configured canary (docs/canary.md): writes each host file every interval,
/// reads peers at least every interval and as soon as inotify says a peer's file changed,
/// and hands each canary's status to the state model, where `canary_late` is a stall.
///
/// One service for all canaries, each a ``CanaryRunner`` whose failures stay its own.
public struct CanaryService: Service {
    let canaries: [(key: PairKey, configuration: CanaryConfiguration)]
    let store: MonitorStore
    let clock: any ServiceClock
    let stateDirectory: String
    let logger: Logger

    public init(
        canaries: [(key: PairKey, configuration: CanaryConfiguration)],
        store: MonitorStore,
        clock: any ServiceClock,
        stateDirectory: String,
        logger: Logger
    ) {
        self.canaries = canaries
        self.store = store
        self.clock = clock
        self.stateDirectory = stateDirectory
        self.logger = logger
    }

    public func run() async throws {
        let inotify = InotifyWatch()
        if inotify == nil { self.logger.warning("canaries: inotify unavailable; peers are read every interval only") }
        inotify?.start()
        defer { inotify?.stop() }
        await cancelWhenGracefulShutdown {
            let started = self.clock.monotonicTime()
            var runners = self.canaries.map {
                CanaryRunner(key: $0.key, configuration: $0.configuration, stateDirectory: self.stateDirectory, startedAt: started)
            }
            while !Task.isCancelled {
                let now = self.clock.moment()
                let changes = inotify?.take() ?? InotifyWatch.Changes()
                let monitor = self.store.snapshot().monitor
                var next = MonotonicInstant(microseconds: .max)
                for index in runners.indices {
                    if let watch = runners[index].watch, changes.gone.contains(watch) { runners[index].watch = nil }
                    let changed = runners[index].watch.map(changes.changed.contains) ?? false
                    let suppressed = monitor.isSuppressed(runners[index].key, at: now.wall)
                    runners[index].step(at: now, changed: changed, suppressed: suppressed, inotify: inotify, store: self.store, logger: self.logger)
                    next = min(next, runners[index].canary.nextDeadline(after: now.monotonic))
                }
                await self.sleep(until: next, inotify: inotify)
            }
        }
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
