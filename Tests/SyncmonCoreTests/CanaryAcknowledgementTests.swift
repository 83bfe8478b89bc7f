import SyncmonCore
import Testing

/// A host acknowledges a peer's move soon after reading it (docs/canary.md, "Round trips"), so
/// the round trip is the sync's latency both ways, not the interval; acknowledgements are
/// spaced, and one never makes the peer acknowledge in turn. On a manual clock.
@Suite("Canary acknowledgements")
struct CanaryAcknowledgementTests {
    /// The seconds at which `me` wrote an acknowledgement (its `seq` again, `seen` new), with
    /// peer `b` first read at 1 and moving at each of `moves`.
    static func acknowledgements(interval: Int64, mode: CanaryMode, moves: [Int64], until end: Int64) -> [Int64] {
        var rig = CanaryRig(mode: mode, lateAfter: 600, interval: interval)
        var seq: Int64 = 1
        var written: [Int64] = []
        for second in 0...end {
            if second == 1 { rig.read(1, peerFile("b", seq: seq)) }
            if moves.contains(second) {
                seq += 1
                rig.read(second, peerFile("b", seq: seq))
            }
            let actions = rig.canary.tick(at: rig.moment(second))
            for case .write(let file) in actions {
                if file.seq == rig.canary.seq { written.append(second) }
                rig.canary.wrote(file, at: mono(second))
            }
        }
        return written
    }

    @Test(
        "a move is acknowledged at once, then at most once per 5 s (or the interval); never in receive mode",
        arguments: [
            (Int64(60), CanaryMode.both, [Int64(2)], [Int64(2)]),
            (60, .both, [2, 3, 4, 9], [2, 7, 12]),
            (60, .both, [2, 20], [2, 20]),
            (3, .both, [4], [4]),
            (2, .both, [3], [3]),
            (60, .receive, [2], []),
            (60, .both, [], []),
        ])
    func spacing(interval: Int64, mode: CanaryMode, moves: [Int64], expected: [Int64]) {
        #expect(Self.acknowledgements(interval: interval, mode: mode, moves: moves, until: 25) == expected)
    }

    @Test("an acknowledgement keeps the seq and the time it was written, and says the peer's new seq")
    func acknowledgementFile() throws {
        var rig = CanaryRig(lateAfter: 600, interval: 60)
        let first = rig.canary.tick(at: rig.moment(0))
        guard case .write(let original) = first.first else {
            Issue.record("no write: \(first)")
            return
        }
        rig.canary.wrote(original, at: mono(0))
        rig.read(1, peerFile("b", seq: 4))
        rig.read(3, peerFile("b", seq: 5))
        let actions = rig.canary.tick(at: rig.moment(3))
        guard case .write(let acknowledgement) = actions.first else {
            Issue.record("no acknowledgement: \(actions)")
            return
        }
        #expect(acknowledgement.seq == original.seq)
        #expect(acknowledgement.written == original.written)
        #expect(acknowledgement.seen == [peer("b"): 5])
    }

    /// Two hosts, each file reaching the other `latency` seconds after it was written.
    struct Pair {
        var hosts: [Canary]
        /// Per host: its file as the other host sees it, and since when.
        var files: [(file: CanaryFile, visibleAt: Int64)?] = [nil, nil]
        var writes = [0, 0]

        init(interval: Int64, offset: Int64) {
            let configurations = ["a", "b"].map {
                CanaryConfiguration(path: "/srv/shared", host: CanaryHost($0)!, interval: span(interval), lateAfter: span(600))
            }
            self.hosts = configurations.map { Canary(configuration: $0, startedAt: mono(0)) }
            self.offset = offset
        }

        /// When host b starts, after a.
        let offset: Int64

        mutating func run(until end: Int64, latency: Int64) {
            for second in 0...end {
                for index in 0..<2 where index == 0 || second >= self.offset {
                    let moment = CanaryMoment(monotonic: mono(second), wall: at(second))
                    if let other = self.files[1 - index], other.visibleAt == second {
                        _ = self.hosts[index].read([.file(name: "canary-\(other.file.host).json", bytes: Array(other.file.encoded.utf8))], at: moment)
                    }
                    for case .write(let file) in self.hosts[index].tick(at: moment) {
                        self.hosts[index].wrote(file, at: mono(second))
                        self.files[index] = (file, second + latency)
                        self.writes[index] += 1
                    }
                }
            }
        }
    }

    @Test("two hosts a minute apart: each round trip is the sync's latency both ways, not the interval", arguments: [Int64(1), 3])
    func roundTripIsLatency(latency: Int64) throws {
        var pair = Pair(interval: 60, offset: 30)
        pair.run(until: 300, latency: latency)
        let a = try #require(pair.hosts[0].peers[CanaryHost("b")!]?.roundTrip)
        let b = try #require(pair.hosts[1].peers[CanaryHost("a")!]?.roundTrip)
        #expect(a == span(2 * latency))
        #expect(b == span(2 * latency))
        // Each host's writes every interval, and one acknowledgement of each of the peer's: no
        // acknowledgement answers another.
        #expect(pair.writes[0] <= 2 * (300 / 60 + 1), "\(pair.writes)")
        #expect(pair.writes[1] <= 2 * (270 / 60 + 1), "\(pair.writes)")
    }
}
