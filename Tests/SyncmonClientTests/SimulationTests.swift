import Foundation
import SyncmonClient
import SyncmonCore
import SyncmonSimulation
import SyncmonTestSupport
import Testing

/// `syncmon simulate`: the fleet model in process, and the command end to end.
@Suite("Simulation")
struct SimulationTests {
    static let start = RFC3339.parse("2026-11-21T12:00:00Z")!

    /// Every line of a fleet's stream.
    static func stream(_ options: FleetSimulation.Options) -> [String] {
        var fleet = FleetSimulation(options: options)
        var renderer = StreamRenderer(fleet: fleet)
        var lines: [String] = []
        while let step = fleet.next() { lines += renderer.lines(for: step) }
        return lines
    }

    @Test("a seeded fleet is reproducible, near the target rate, and every line is accepted")
    func fleetModel() {
        let options = FleetSimulation.Options(engines: 12, rate: 40, seed: 5, start: Self.start, duration: .seconds(300 as Int64), yieldsHeartbeats: true)
        let lines = Self.stream(options)
        #expect(lines == Self.stream(options))
        var other = options
        other.seed = 6
        #expect(lines != Self.stream(other))
        // 300 s at 40 events/s, give or take what troubled engines do not send.
        #expect((6_000...15_000).contains(lines.count), "\(lines.count) lines")
        var lastTime = Timestamp(microseconds: 0)
        var lastSequence: [String: Int64] = [:]
        for line in lines {
            guard let event = decodedEvent(line) else { return }
            let time = event.time!
            #expect(time >= lastTime && time < Self.start.adding(.seconds(300 as Int64)))
            lastTime = time
            if let sequence = event.sequence {
                #expect(sequence > lastSequence[event.engine.description, default: -1])
                lastSequence[event.engine.description] = sequence
            }
        }
        let engines = Set(lines.map { jsonObject($0)["engine"] as? String ?? "" })
        #expect(engines.count == 12)
        #expect(engines.contains("sim-crash-05") && engines.contains("sim-hung-fetch-04") && engines.contains("sim-healthy-11"))
    }

    @Test("--scenario picks the mix; a crashed engine goes quiet; heartbeats come at the interval")
    func scenarios() {
        let options = FleetSimulation.Options(
            engines: 2, rate: 10, seed: 1, start: Self.start, duration: .seconds(600 as Int64), heartbeatInterval: .seconds(20 as Int64),
            scenarios: [.crash], prefix: "t", yieldsHeartbeats: true
        )
        let fleet = FleetSimulation(options: options)
        #expect(fleet.engines.map(\.name) == ["t-crash-00", "t-crash-01"])
        let lines = Self.stream(options)
        for engine in ["t-crash-00", "t-crash-01"] {
            let own = lines.filter { jsonObject($0)["engine"] as? String == engine }.compactMap { decodedEvent($0) }
            let last = own.last!.time!
            // Dies 2-3 minutes in (half of 600 s is later than that).
            #expect(last.since(Self.start) >= .seconds(120 as Int64) && last.since(Self.start) <= .seconds(181 as Int64))
            let beats = own.filter { $0.payload == .heartbeat }.count
            #expect((5...9).contains(beats), "\(beats) heartbeats")
        }
    }

    @Test("syncmon simulate --stdout --duration 10m --seed 1 --speedup | syncmon replay - shows each scenario's trouble")
    func streamThroughReplay() async throws {
        let arguments = ["simulate", "--stdout", "--duration", "10m", "--seed", "1", "--speedup", "--start", "2026-11-21T12:00:00Z"]
        let simulated = try await SyncmonProcess.run(arguments)
        #expect(simulated.status == 0, "stderr: \(simulated.standardError)")
        let again = try await SyncmonProcess.run(arguments)
        #expect(again.standardOutput == simulated.standardOutput, "the same seed and start give the same stream")

        let replay = try await SyncmonProcess.run(["replay", "-", "--json"], input: Data(simulated.standardOutput.utf8))
        #expect(replay.status == 2, "critical: engines are down, in error or stalled")
        #expect(replay.standardError.contains("none rejected"), "\(replay.standardError)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(replay.standardOutput.utf8)) as? [String: Any])
        let rows = try #require(document["engines"] as? [[String: Any]])
        var summaries: [String: String] = [:]
        var stalls: [String: [String]] = [:]
        for row in rows {
            let engine = row["engine"] as? String ?? "?"
            summaries[engine] = row["summary"] as? String
            stalls[engine] = row["stalled"] as? [String]
        }
        #expect(summaries.count == 20)
        #expect(summaries["sim-crash-05"] == "engine_down")
        #expect(summaries["sim-quota-exceeded-03"] == "error")
        #expect(summaries["sim-hung-fetch-04"] == "stalled")
        #expect(stalls["sim-hung-fetch-04"] == ["no_progress"])
        #expect(summaries["sim-rate-limited-02"] == "throttled")
        #expect(["no_network", "retrying", "succeeded", "in_progress"].contains(summaries["sim-flaky-network-01"] ?? "?"))
        let healthy = summaries.filter { $0.key.hasPrefix("sim-healthy-") }
        #expect(healthy.count == 15)
        #expect(healthy.values.allSatisfy { $0 == "succeeded" || $0 == "in_progress" }, "\(healthy)")
    }

    @Test("syncmon simulate against a daemon: engines connect through the client, the crash shows engine_down, the rest stop cleanly")
    func live() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        let daemon = try await DaemonProcess.start(in: directory.path)
        defer { Task { await daemon.stop() } }
        // Four seconds of simulation (SyncmonProcess waits on a thread of its own, not a cooperative one).
        let result = try await SyncmonProcess.run([
            "simulate", "--events-socket", daemon.eventsSocket, "--engines", "6", "--rate", "60", "--duration", "4s", "--seed", "2",
        ])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardError.contains("sim-crash-05 crashed"))
        let (met, rows) = await daemon.waitForStatus {
            $0.count == 6 && $0["sim-crash-05/private"]?["summary"] as? String == "engine_down"
                && $0.filter { $0.key != "sim-crash-05/private" }.allSatisfy { $0.value["summary"] as? String == "stopped" }
        }
        #expect(met, "rows: \(rows.mapValues { $0["summary"] ?? "?" })")
    }

    @Test("--help explains the scenarios; bad combinations are refused")
    func help() async throws {
        let help = try await SyncmonProcess.run(["simulate", "--help"])
        for scenario in SimulationScenario.allCases { #expect(help.standardOutput.contains(scenario.rawValue)) }
        #expect(try await SyncmonProcess.run(["simulate", "--speedup"]).status == 64)
        #expect(try await SyncmonProcess.run(["simulate", "--stdout", "--speedup"]).status == 64)
        #expect(try await SyncmonProcess.run(["simulate", "--stdout", "--events-socket", "/x"]).status == 64)
        #expect(try await SyncmonProcess.run(["simulate", "--engines", "0"]).status == 64)
    }
}
