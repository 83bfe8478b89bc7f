import Logging
import NIOCore
import ServiceLifecycle
import SyncmonContract
import SyncmonCore
import SyncmonNotify
import SyncmonSources
import SyncmonSystemd
import SyncmonWeb

extension Daemon {
    /// What every service of one daemon is built from: its configuration, the state model, the
    /// reporter, the clock and the logger, so that `Daemon.run` reads as the start-up sequence
    /// and the services are wired in one place.
    struct Wiring {
        let configuration: DaemonConfiguration
        let clock: any ServiceClock
        let logger: Logger
        let store: MonitorStore
        let reporter: EventReporter
        let persistence: PersistenceService
        /// The state model as the sources see it.
        var sourceModel: StoreSourceModel { StoreSourceModel(store: self.store, reporter: self.reporter) }

        init(configuration: DaemonConfiguration, clock: any ServiceClock, logger: Logger) {
            self.configuration = configuration
            self.clock = clock
            self.logger = logger
            self.store = MonitorStore(configuration: configuration.monitorConfiguration)
            self.reporter = EventReporter(logger: logger)
            self.persistence = PersistenceService(
                file: StateFile(directory: configuration.stateDirectory),
                store: self.store,
                interval: configuration.persistInterval,
                clock: clock,
                logger: logger
            )
        }

        /// Every service in the order they start; they stop in reverse: systemd hears STOPPING
        /// first, and the state is saved last, after the listeners have closed. The host network
        /// service is also returned alone: its first view is taken before any service runs.
        func services(
            listener: PushIngestService.Listener,
            group: any EventLoopGroup,
            httpGroup: any EventLoopGroup,
            load: @escaping @Sendable () throws -> DaemonConfiguration,
            logLevel: SharedLogLevel?,
            version: String,
            revision: String
        ) throws -> (services: [any Service], hostNetwork: HostNetworkService) {
            let (configuration, store, reporter, clock, logger) = (self.configuration, self.store, self.reporter, self.clock, self.logger)
            let readiness = ReadinessLatch(count: 2)
            let push = PushIngestService(
                configuration: configuration,
                store: store,
                reporter: reporter,
                group: group,
                clock: clock,
                readiness: readiness,
                logger: logger,
                listener: listener
            )
            // Subscribe sources (docs/subscribe.md): one service each, after `push` in the list so
            // they stop before the state is saved.
            let subscribe = try configuration.subscribeServices(model: self.sourceModel, group: group, clock: clock, logger: logger)
            var renderer = MetricsRenderer(version: version, revision: revision)
            renderer.sources = subscribe.registry
            let unitRules = UnitRulesRegistry(subscribe.services.compactMap(\.unitRules))
            renderer.unitRules = unitRules
            renderer.persistence = self.persistence.health
            // Notification routes (docs/notifications.md), checked at load.
            let notifications = try self.notifications()
            renderer.notifications = notifications
            // TLS and basic auth (docs/configuration.md, "Web configuration"); SIGHUP replaces it.
            let web = WebSecurityHolder(configuration.web)
            let http = HTTPService(
                configuration: configuration,
                router: HTTPRouter(store: store, renderer: renderer),
                group: httpGroup,
                clock: clock,
                readiness: readiness,
                web: web,
                logger: logger
            )
            let notify = SystemdNotifyService(
                store: store, group: group, readiness: readiness, clock: clock, notifier: SystemdNotifier(), logger: logger)
            let evaluation = EvaluationService(store: store, clock: clock) { changes in
                reporter.report(changes)
                notify.updateStatus()
            }
            let hostNetwork = self.hostNetwork(notify: notify)
            let canary = try self.canary()
            let reload = ReloadService(
                load: load, running: configuration, store: store, notify: notify, web: web, logLevel: logLevel, rules: unitRules, logger: logger)
            let services: [any Service] =
                [self.persistence, push] + subscribe.services.map { $0 as any Service } + [http, hostNetwork] + canary + [evaluation, reload, notify]
                + (notifications.map { [$0 as any Service] } ?? [])
            return (services, hostNetwork)
        }

        /// The host's own network view (docs/operations.md, "Host network view"), taken before
        /// any service runs: restored pairs and the first events meet the host's real state.
        private func hostNetwork(notify: SystemdNotifyService) -> HostNetworkService {
            let (store, reporter, clock) = (self.store, self.reporter, self.clock)
            return HostNetworkService(mode: self.configuration.hostNetwork, clock: clock, logger: self.logger) { update in
                reporter.report(hostNetwork: update)
                let status: NetworkStatus
                switch update {
                case .view(let view): status = view.status
                case .unavailable: status = .unknown
                }
                reporter.report(store.setHostNetwork(status, now: clock.wallTime()))
                notify.updateStatus()
            }
        }

        /// The notification routes' service (docs/notifications.md); nil without routes.
        private func notifications() throws -> NotificationService? {
            let routes: [NotificationRouteConfiguration]
            do throws(NotifySettingError) {
                routes = try NotifyRouteSetting.resolve(self.configuration.notifyRoutes, lines: self.configuration.sectionLines)
            } catch {
                throw DaemonError.configuration(error.description)
            }
            guard !routes.isEmpty else { return nil }
            return try NotificationService(
                routes: routes, store: self.store, clock: self.clock, stateDirectory: self.configuration.stateDirectory, logger: self.logger,
                health: self.persistence.health)
        }

        /// Canaries (docs/canary.md), checked at load: their pairs exist from the start.
        private func canary() throws -> [any Service] {
            let canaries = try CanarySetting.resolve(self.configuration.canaries, flags: self.configuration.canaryFlags)
            guard !canaries.isEmpty else { return [] }
            return [
                CanaryService(
                    canaries: canaries, model: self.sourceModel, clock: self.clock, stateDirectory: self.configuration.stateDirectory, logger: self.logger)
            ]
        }
    }
}
