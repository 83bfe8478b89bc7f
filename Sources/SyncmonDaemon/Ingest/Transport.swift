/// How an event reached the daemon: the `transport` label of `syncmon_events_received_total`.
package enum Transport: Int, CaseIterable, Sendable, CustomStringConvertible {
    case push
    case subscribe

    package var description: String {
        switch self {
        case .push: "push"
        case .subscribe: "subscribe"
        }
    }
}
