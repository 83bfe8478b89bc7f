import SyncmonCore
import Testing

/// The canary's rules (docs/canary.md) on a manual clock: moves, acknowledgements and round
/// trips, the two rules of `canary_late` and their clocks, modes, the peer limit, forgetting,
/// restarts and clock jumps. `late-after` is 20 s and the interval 2 s throughout.
@Suite("Canary")
struct CanaryTests {
    @Test("at start it writes seq 1 and reads; then again each interval, not before")
    func schedule() {
        var rig = CanaryRig()
        let first = rig.canary.tick(at: rig.moment(0))
        #expect(first.count == 2)
        guard case .write(let file) = first.first else {
            Issue.record("no write: \(first)")
            return
        }
        #expect(file.seq == 1 && file.host == CanaryRig.me && file.seen.isEmpty)
        #expect(first.last == .readPeers)
        rig.canary.wrote(file, at: mono(0))
        _ = rig.canary.read([], at: rig.moment(0))
        let quiet = rig.canary.tick(at: rig.moment(1))
        #expect(quiet.isEmpty)
        #expect(rig.canary.nextDeadline(after: mono(1)) == mono(2))
        let again = rig.canary.tick(at: rig.moment(2))
        #expect(again.count == 2)
    }

    @Test("a peer moves when its seq grows, at this host's time of reading; the next file says what was seen")
    func moves() {
        var rig = CanaryRig()
        rig.tick(0)
        #expect(rig.read(0, peerFile("b", seq: 5)).isEmpty)
        #expect(rig.canary.peers[peer("b")]?.lastMoved == nil)
        #expect(rig.read(3, peerFile("b", seq: 5)).isEmpty)
        #expect(rig.read(4, peerFile("b", seq: 6)) == [.moved(peer: peer("b"), seq: 6)])
        #expect(rig.canary.peers[peer("b")]?.lastMoved == rig.moment(4))
        let actions = rig.canary.tick(at: rig.moment(4))
        guard case .write(let file) = actions.first else {
            Issue.record("no write")
            return
        }
        #expect(file.seen == [peer("b"): 6])
    }

    @Test("a round trip runs from writing a seq to reading its acknowledgement; an older ack is not timed again")
    func roundTrips() {
        var rig = CanaryRig()
        rig.tick(0)  // seq 1
        rig.tick(2)  // seq 2
        #expect(rig.read(3, peerFile("b", seq: 1, seen: 1)) == [.acknowledged(peer: peer("b"), seq: 1, roundTrip: span(3))])
        #expect(rig.read(5, peerFile("b", seq: 2, seen: 1)) == [.moved(peer: peer("b"), seq: 2)])
        #expect(rig.read(9, peerFile("b", seq: 3, seen: 2)).contains(.acknowledged(peer: peer("b"), seq: 2, roundTrip: span(7))))
        #expect(rig.canary.status.peers.first?.roundTripSeconds == 7)
    }

    @Test("a peer whose canary does not move is late T after its last move, not a microsecond before; a move recovers it")
    func notMoving() {
        var rig = CanaryRig()
        rig.tick(0)
        rig.read(0, peerFile("b", seq: 1, seen: 1))
        rig.read(10, peerFile("b", seq: 2, seen: 1))
        let justBeforeLate = rig.canary.tick(at: CanaryMoment(monotonic: mono(30).adding(TimeSpan(microseconds: -1)), wall: at(30)))
        #expect(justBeforeLate.allSatisfy { if case .late = $0 { false } else { true } })
        #expect(rig.tick(30).contains(.late(peer: peer("b"), .notMoving)))
        #expect(rig.canary.isLate)
        #expect(rig.canary.status.latePeers == [peer("b")])
        let back = rig.read(31, peerFile("b", seq: 3, seen: 1))
        #expect(back.contains(.recovered(peer: peer("b"))))
        #expect(!rig.canary.isLate)
    }

    @Test("mode both: a peer that moves but never acknowledges is late T after the write")
    func notAcknowledged() {
        var rig = CanaryRig()
        rig.tick(0)  // seq 1 at 0
        rig.read(0, peerFile("b", seq: 0))
        var late: [CanaryAction] = []
        for second in stride(from: Int64(1), through: 19, by: 2) {
            late += rig.tick(second)
            late += rig.read(second, peerFile("b", seq: second))
        }
        #expect(!late.contains { if case .late = $0 { true } else { false } })
        rig.read(20, peerFile("b", seq: 20))
        #expect(rig.late("b") == .notAcknowledged(seq: 1))
        // It acknowledges a later seq: everything up to it came back.
        let back = rig.read(21, peerFile("b", seq: 21, seen: rig.canary.seq))
        #expect(back.contains(.recovered(peer: peer("b"))))
    }

    @Test("mode receive reads only: never writes, never late for acknowledgements; mode send never reads, never late")
    func modes() {
        var receive = CanaryRig(mode: .receive)
        let first = receive.canary.tick(at: receive.moment(0))
        #expect(first == [.readPeers])
        for second in stride(from: Int64(0), through: 60, by: 2) { receive.read(second, peerFile("b", seq: second + 1)) }
        #expect(receive.late("b") == nil)
        receive.read(80, peerFile("b", seq: 61))
        receive.tick(81)
        #expect(receive.late("b") == .notMoving)

        var send = CanaryRig(mode: .send)
        let actions = send.canary.tick(at: send.moment(0))
        #expect(actions.count == 1)
        guard case .write = actions.first else {
            Issue.record("send does not write")
            return
        }
    }

    @Test("nothing is late before a peer was ever seen, however long it takes")
    func noPeerNoLate() {
        var rig = CanaryRig()
        for second in stride(from: Int64(0), through: 1000, by: 2) { rig.tick(second); rig.read(second) }
        #expect(rig.canary.peers.isEmpty)
        #expect(!rig.log.contains { if case .late = $0 { true } else { false } })
    }

    @Test("each clock counts from the peer's first sighting and the daemon's start")
    func clocksStartLate() {
        // A peer whose file has sat unchanged for days is first seen at 100: late at 120.
        var rig = CanaryRig(startedAt: 90)
        rig.tick(90)
        rig.read(100, peerFile("b", seq: 7, seen: 1))
        rig.tick(119)
        #expect(rig.late("b") == nil)
        rig.tick(120)
        #expect(rig.late("b") == .notMoving)
    }

    @Test("while suppressed nothing is late, silently; after it ends each peer gets T again")
    func suppression() {
        var rig = CanaryRig()
        rig.tick(0)
        rig.read(0, peerFile("b", seq: 1, seen: 1))
        rig.canary.setSuppressed(true, at: mono(10))
        rig.tick(30)
        #expect(rig.late("b") == nil)
        rig.canary.setSuppressed(false, at: mono(50))
        let ended = rig.tick(50)
        #expect(!ended.contains { if case .late = $0 { true } else { false } })
        rig.tick(69)
        #expect(rig.late("b") == nil)
        #expect(rig.tick(70).contains(.late(peer: peer("b"), .notMoving)))
        // Suppressed while late: cleared without a "recovered".
        rig.canary.setSuppressed(true, at: mono(71))
        #expect(rig.tick(72).isEmpty)
        #expect(!rig.canary.isLate)
    }

    @Test("after a restart seq goes on from the persisted one; an acknowledgement of the last run is not timed")
    func restart() {
        var rig = CanaryRig(restoredSeq: 41)
        let actions = rig.canary.tick(at: rig.moment(0))
        guard case .write(let file) = actions.first else {
            Issue.record("no write")
            return
        }
        #expect(file.seq == 42)
        rig.canary.wrote(file, at: mono(0))
        #expect(rig.read(1, peerFile("b", seq: 3, seen: 41)).isEmpty)
        #expect(rig.read(2, peerFile("b", seq: 4, seen: 42)).contains(.acknowledged(peer: peer("b"), seq: 42, roundTrip: span(2))))
        // A peer claiming a seq never written counts only up to the latest written.
        rig.read(3, peerFile("b", seq: 5, seen: 999))
        #expect(rig.canary.peers[peer("b")]?.acknowledged == 42)
    }

    @Test("at most maximumPeers peers; more are ignored and counted peer_limit at each reading")
    func peerLimit() {
        var rig = CanaryRig(maximumPeers: 2)
        let actions = rig.read(0, peerFile("b", seq: 1), peerFile("c", seq: 1), peerFile("d", seq: 1))
        #expect(rig.canary.peers.count == 2)
        #expect(actions.contains { if case .rejected(.peerLimit, "canary-d.json", _) = $0 { true } else { false } })
        #expect(rig.canary.errors[.peerLimit] == 1)
        rig.read(2, peerFile("b", seq: 2), peerFile("c", seq: 2), peerFile("d", seq: 2))
        #expect(rig.canary.errors[.peerLimit] == 2)
    }

    @Test("a peer silent for forgetAfter is forgotten, and its stale file does not bring it back until it moves")
    func forgetting() {
        var rig = CanaryRig(forgetAfter: 100)
        rig.read(0, peerFile("b", seq: 1))
        rig.tick(99)
        #expect(rig.canary.peers[peer("b")] != nil)
        #expect(rig.tick(100).contains(.forgotten(peer: peer("b"))))
        #expect(rig.canary.peers.isEmpty)
        rig.read(101, peerFile("b", seq: 1))
        #expect(rig.canary.peers.isEmpty)
        rig.read(102, peerFile("b", seq: 2))
        #expect(rig.canary.peers[peer("b")]?.firstSeen == mono(102))
    }

    @Test("hostile entries are counted and skipped: wrong host, not regular, too large, unreadable, garbage; our own file is ignored")
    func hostile() {
        var rig = CanaryRig()
        let actions = rig.read(
            0,
            peerFile("evil", seq: 1, name: "canary-b.json"),
            .notRegular(name: "canary-link.json"),
            .tooLarge(name: "canary-big.json", size: 1 << 20),
            .unreadable(name: "canary-locked.json", reason: "permission denied"),
            .file(name: "canary-junk.json", bytes: Array("{".utf8)),
            peerFile("me", seq: 99))
        #expect(actions.count == 5)
        #expect(rig.canary.peers.isEmpty)
        #expect(rig.canary.errors[.malformed] == 4)
        #expect(rig.canary.errors[.read] == 1)
    }

    @Test("a wall-clock jump changes nothing: the same reads give the same moves, round trips and lateness", arguments: [0, 86_400, -86_400])
    func clockJumps(_ jump: Int64) {
        func run(_ jump: Int64) -> [CanaryAction] {
            var rig = CanaryRig()
            for second in stride(from: Int64(0), through: 60, by: 2) {
                if second == 20 { rig.wallJump = jump }
                rig.tick(second)
                rig.read(second, peerFile("b", seq: second < 30 ? second + 1 : 31, seen: second < 30 ? rig.canary.seq : 1))
            }
            return rig.log.filter { if case .write = $0 { false } else { true } }
        }
        #expect(run(jump) == run(0))
    }

    @Test("late-after 0 disables the stall; moves and round trips are still measured")
    func disabled() {
        var rig = CanaryRig(lateAfter: 0)
        rig.tick(0)
        rig.read(1, peerFile("b", seq: 1, seen: 1))
        rig.tick(10_000)
        #expect(rig.late("b") == nil)
        #expect(rig.canary.peers[peer("b")]?.roundTrip == span(1))
    }

    @Test("a failed write is counted and shown until a write succeeds")
    func writeFailure() {
        var rig = CanaryRig()
        rig.canary.failed(.write, detail: "/srv/shared/.syncmon: Read-only file system")
        #expect(rig.canary.errors[.write] == 1)
        #expect(rig.canary.status.error == "write: /srv/shared/.syncmon: Read-only file system")
        rig.tick(0)
        #expect(rig.canary.status.error == nil)
    }
}
