import SyncmonClient
import SyncmonCore

/// What a simulated engine does at one moment.
package enum SimulatedAction: Sendable, Hashable {
    /// The engine starts. Live, its client connects (and sends `engineStarted` itself); on a
    /// stream, an `engineStarted` line.
    case start
    /// An event the engine reports.
    case event(EngineEvent)
    /// A heartbeat (streams only: live clients send their own).
    case heartbeat
    /// The engine dies: no `engineStopped`, no more heartbeats; live, its connection drops.
    case crash
}
