import SyncmonClient
import SyncmonCore

/// A fleet of simulated engines on a virtual clock (`syncmon simulate`): yields every engine's
/// actions in time order.
///
/// The same fleet drives both outputs: live, through one ``SyncmonClient`` per engine, waiting
/// for each action's time; or as an NDJSON stream with explicit times (``StreamRenderer``),
/// optionally without waiting at all.
package struct FleetSimulation: Sendable {
    /// How the fleet is made.
    package struct Options: Sendable {
        /// How many engines.
        package var engines: Int
        /// The target for the whole fleet, in events per second (approximate: troubled engines
        /// are quieter while in trouble).
        package var rate: Double
        package var seed: UInt64
        /// When the simulation starts (the first event's time).
        package var start: Timestamp
        /// How long it runs; `nil` runs until stopped.
        package var duration: TimeSpan?
        /// The heartbeat interval each engine promises.
        package var heartbeatInterval: TimeSpan
        /// The scenarios, by engine index (repeating); the default mix when empty.
        package var scenarios: [SimulationScenario]
        /// Engine names are `<prefix>-<scenario>-<index>`.
        package var prefix: String
        /// Whether the fleet yields heartbeats itself (streams); live clients send their own.
        package var yieldsHeartbeats: Bool

        package init(
            engines: Int = 20,
            rate: Double = 50,
            seed: UInt64 = 1,
            start: Timestamp,
            duration: TimeSpan? = nil,
            heartbeatInterval: TimeSpan = .seconds(30 as Int64),
            scenarios: [SimulationScenario] = [],
            prefix: String = "sim",
            yieldsHeartbeats: Bool
        ) {
            self.engines = engines
            self.rate = rate
            self.seed = seed
            self.start = start
            self.duration = duration
            self.heartbeatInterval = heartbeatInterval
            self.scenarios = scenarios
            self.prefix = prefix
            self.yieldsHeartbeats = yieldsHeartbeats
        }
    }

    /// One action of one engine at one time.
    package struct Step: Sendable {
        package var time: Timestamp
        /// The index into ``engines``.
        package var engine: Int
        package var action: SimulatedAction
    }

    /// What is due: an engine's next planned action, or its next heartbeat.
    private enum Due: Sendable {
        case action(Int)
        case heartbeat(Int)
    }

    package let options: Options
    package private(set) var engines: [SimulatedEngine]
    private var due = TimedQueue<Due>()
    /// Engines that have started (heartbeats begin then).
    private var started: [Bool]
    /// Nothing at or after this time is yielded.
    private let end: Timestamp?

    package init(options: Options) {
        self.options = options
        let count = max(0, options.engines)
        let mix = options.scenarios.isEmpty ? SimulationScenario.defaultMix : options.scenarios
        // A cycle is about a dozen events plus an idle gap: this spacing makes the fleet's
        // total close to the target rate.
        let perEngine = max(options.rate, 0.001) / Double(max(count, 1))
        let stepSeconds = min(max(0.8 / perEngine, 0.001), 30)
        let width = String(max(count - 1, 0)).count
        var random = SplitMix64(seed: options.seed)
        var engines: [SimulatedEngine] = []
        for index in 0..<count {
            let scenario = mix[index % mix.count]
            var number = String(index)
            while number.count < max(width, 2) { number = "0" + number }
            let name = EventLineRenderer.sanitizedEngineName("\(options.prefix)-\(scenario.rawValue)-\(number)")
            engines.append(
                SimulatedEngine(
                    name: name, scenario: scenario, step: .seconds(stepSeconds), start: options.start,
                    duration: options.duration, random: random.split()
                )
            )
        }
        self.engines = engines
        self.started = Array(repeating: false, count: count)
        self.end = options.duration.map { options.start.adding($0) }
        for (index, engine) in engines.enumerated() {
            self.due.insert(.action(index), at: options.start.adding(engine.firstDelay))
        }
    }

    /// When the next step is due; `nil` when the simulation is over.
    package var nextTime: Timestamp? {
        guard let time = self.due.firstTime else { return nil }
        if let end, time >= end { return nil }
        return time
    }

    /// The next step in time order; `nil` when the simulation is over.
    package mutating func next() -> Step? {
        guard self.nextTime != nil, let (time, due) = self.due.removeFirst() else { return nil }
        switch due {
        case .action(let index):
            let (action, next) = self.engines[index].advance(at: time)
            if let next { self.due.insert(.action(index), at: next) }
            if action == .start, !self.started[index] {
                self.started[index] = true
                if self.options.yieldsHeartbeats { self.due.insert(.heartbeat(index), at: time.adding(self.options.heartbeatInterval)) }
            }
            return Step(time: time, engine: index, action: action)
        case .heartbeat(let index):
            guard !self.engines[index].isDead else { return self.next() }
            self.due.insert(.heartbeat(index), at: time.adding(self.options.heartbeatInterval))
            return Step(time: time, engine: index, action: .heartbeat)
        }
    }
}
