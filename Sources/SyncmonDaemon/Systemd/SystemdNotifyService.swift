import Logging
import NIOCore
import ServiceLifecycle
import SyncmonCore
import SyncmonHost
import SyncmonLock
import SyncmonSystemd

/// Talks to systemd (docs/operations.md#systemd): `READY=1` once every listener is bound, `STATUS=` kept current,
/// `WATCHDOG=1` at half of `WATCHDOG_USEC` only while the event loops and the state model
/// answer, `STOPPING=1` on shutdown.
public final class SystemdNotifyService: Service, Sendable {
    private let notifier = SystemdNotifier()
    private let store: MonitorStore
    private let group: any EventLoopGroup
    private let readiness: ReadinessLatch
    private let logger: Logger
    /// The last STATUS text sent, to send only changes, and the store generation it was
    /// computed at: an unchanged state model has an unchanged line, so it is not recomputed
    /// (at 10,000 pairs that was most of an idle daemon's CPU).
    private let lastStatus = Locked<(text: String, generation: UInt64)?>(nil)

    public init(store: MonitorStore, group: any EventLoopGroup, readiness: ReadinessLatch, logger: Logger) {
        self.store = store
        self.group = group
        self.readiness = readiness
        self.logger = logger
    }

    public func run() async throws {
        await self.readiness.wait()
        guard self.readiness.isOpen else { return }
        // Remembered as sent, so the first tick does not repeat it.
        let status = self.currentStatus()
        self.lastStatus.withLock { $0 = status }
        self.send([.ready, .status(status.text)])
        let interval = (try? self.notifier.watchdogInterval()) ?? nil
        try? await cancelWhenGracefulShutdown {
            // Every second: STATUS= follows changes promptly whatever the watchdog interval.
            let tick = min(interval ?? .seconds(1), .seconds(1))
            var lastPing = ContinuousClock.now
            while true {
                try await Task.sleep(for: tick)
                if let interval, ContinuousClock.now - lastPing >= interval - tick / 2 {
                    // A stuck event loop or lock never gets past these, so systemd's watchdog fires.
                    try await self.group.next().submit {}.get()
                    if self.store.isResponsive() {
                        self.send([.watchdog])
                        lastPing = ContinuousClock.now
                    }
                }
                self.updateStatus()
            }
        }
        self.send([.stopping, .status("stopping")])
    }

    /// Sends `STATUS=` when the text changed. Nothing before `READY=1`, which carries the first
    /// line: the host network view is taken, and may move restored pairs, before the listeners
    /// are bound.
    public func updateStatus() {
        let generation = self.store.generation
        guard let sent = self.lastStatus.withLock({ $0?.generation }), sent != generation else { return }
        let status = self.currentStatus()
        let changed = self.lastStatus.withLock { last -> Bool in
            defer { last = status }
            return last?.text != status.text
        }
        if changed { self.send([.status(status.text)]) }
    }

    /// Brackets a configuration reload for systemd (Debian 12's systemd has no notify-reload).
    public func reloading() { self.send([.reloading]) }
    public func reloaded() { self.send([.ready]) }

    private func currentStatus() -> (text: String, generation: UInt64) {
        let snapshot = self.store.snapshot()
        return (StatusLine.text(summaries: snapshot.monitor.summaries(at: WallClock.now())), snapshot.generation)
    }

    private func send(_ messages: [NotifyMessage]) {
        do {
            _ = try self.notifier.notify(messages)
        } catch {
            self.logger.debug("sd_notify failed", metadata: ["syncmon.reason": "\(error)"])
        }
    }
}
