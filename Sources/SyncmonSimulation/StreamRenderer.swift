import SyncmonClient
import SyncmonCore

/// Renders a simulated fleet's steps as the NDJSON lines the engines would have sent
/// (`syncmon simulate --stdout`): explicit times, a per-engine `seq` on reported events, and
/// `engineStarted` / `heartbeat` lines without one, as ``SyncmonClient`` writes them.
package struct StreamRenderer: Sendable {
    /// One renderer per engine.
    private let renderers: [EventLineRenderer]
    /// Each engine's next `seq`.
    private var sequences: [Int64]
    private let heartbeatInterval: Duration

    package init(fleet: FleetSimulation) {
        self.renderers = fleet.engines.map { EventLineRenderer(engine: $0.name) }
        // As the client does: `seq` starts at the start time in microseconds.
        self.sequences = Array(repeating: fleet.options.start.microseconds, count: fleet.engines.count)
        self.heartbeatInterval = .microseconds(fleet.options.heartbeatInterval.microseconds)
    }

    /// The lines for `step` (none for a crash: the engine just goes quiet).
    package mutating func lines(for step: FleetSimulation.Step) -> [String] {
        let renderer = self.renderers[step.engine]
        switch step.action {
        case .start:
            return [renderer.line(for: .engineStarted(heartbeatInterval: self.heartbeatInterval, version: "simulated"), time: step.time, sequence: nil)]
        case .heartbeat:
            return [renderer.line(for: .heartbeat, time: step.time, sequence: nil)]
        case .crash:
            return []
        case .event(let event):
            let sequence = self.sequences[step.engine]
            self.sequences[step.engine] += 1
            return renderer.lines(for: event, time: step.time, sequence: sequence)
        }
    }
}
