import SyncmonSystemd

/// What `SystemdNotifyService` tells the service manager through: `SystemdNotifier` (sd_notify)
/// in the daemon, a recorder in the tests that step the service through time on a hand-moved
/// clock.
package protocol ServiceManagerNotifier: Sendable {
    /// Sends `messages` in one datagram; `false` when no service manager listens.
    @discardableResult
    func notify(_ messages: [NotifyMessage]) throws -> Bool
    /// How often to ping the watchdog, or `nil` when it is off or meant for another process.
    func watchdogInterval() throws -> Duration?
}

extension SystemdNotifier: ServiceManagerNotifier {}
