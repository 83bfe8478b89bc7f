import SyncmonCore
import SyncmonExposition

/// The notification routes' families of docs/metrics.md (docs/notifications.md): per route.
extension MetricsRenderer {
    /// The families, defined once.
    enum NotifyFamilies {
        static let notifications = MetricFamily.counter(
            "syncmon_notifications_total",
            help:
                "Notifications by route, event (firing, resolved, test) and outcome: sent (delivered), failed (a delivery that failed; it is retried), dropped (pairs owed that resolved or were forgotten before delivery)."
        )
        static let pending = MetricFamily.gauge("syncmon_notifications_pending", help: "Notifications a route owes: decided and not yet delivered.")
        static let lastSuccess = MetricFamily.gauge(
            "syncmon_notification_last_success_timestamp_seconds", help: "When the route last delivered a notification; absent until it has.")
        /// The label values written for every route, so a rate never starts from a missing series.
        static let series: [(event: String, outcome: String)] = [
            ("firing", "sent"), ("firing", "failed"), ("firing", "dropped"), ("resolved", "sent"), ("resolved", "failed"), ("test", "sent"),
            ("test", "failed"),
        ]
    }

    /// Writes the three families, announced even while no route is configured.
    func writeNotifications(into writer: inout ExpositionWriter) {
        let routes = self.notifications?.snapshot() ?? []
        writer.family(NotifyFamilies.notifications)
        for route in routes {
            for (event, outcome) in NotifyFamilies.series {
                let labels = LabelSet(["route": route.name, "event": event, "outcome": outcome])
                writer.sample(NotifyFamilies.notifications, labels: labels, value: route.counts["\(event) \(outcome)"] ?? 0)
            }
        }
        writer.family(NotifyFamilies.pending)
        for route in routes { writer.sample(NotifyFamilies.pending, labels: LabelSet("route", route.name), value: route.owed.count) }
        writer.family(NotifyFamilies.lastSuccess)
        for route in routes {
            if let last = route.lastSuccess { writer.sample(NotifyFamilies.lastSuccess, labels: LabelSet("route", route.name), value: last.seconds) }
        }
    }
}
