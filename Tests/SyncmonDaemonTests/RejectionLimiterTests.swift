import SyncmonCore
import Testing

@testable import SyncmonDaemon

/// `RejectionLimiter`: at most `burst` log entries per window for rejected lines; the lines
/// refused an entry are summed into the next entry.
@Suite("Rejection log limiter")
struct RejectionLimiterTests {
    @Test("the first burst of a window is logged, one entry each")
    func burstLogged() {
        var limiter = RejectionLimiter(burst: 3, window: .seconds(10 as Int64))
        #expect(limiter.admit(1, at: at(0)) == (true, 1))
        #expect(limiter.admit(4, at: at(1)) == (true, 4))
        #expect(limiter.admit(1, at: at(2)) == (true, 1))
    }

    @Test("after the burst, entries are suppressed until the window ends, then summed into one")
    func suppressedThenSummed() {
        var limiter = RejectionLimiter(burst: 2, window: .seconds(10 as Int64))
        #expect(limiter.admit(1, at: at(0)).log)
        #expect(limiter.admit(1, at: at(0)).log)
        #expect(limiter.admit(3, at: at(1)) == (false, 0))
        #expect(limiter.admit(2, at: at(5)) == (false, 0))
        #expect(limiter.admit(1, at: Timestamp(microseconds: at(10).microseconds - 1)) == (false, 0))
        // The window is inclusive at its end: exactly 10 s later a new one starts.
        #expect(limiter.admit(1, at: at(10)) == (true, 3 + 2 + 1 + 1))
        // The sum is reported once.
        #expect(limiter.admit(1, at: at(11)) == (true, 1))
        #expect(limiter.admit(1, at: at(12)) == (false, 0))
    }

    @Test("a new window starts from the first rejection after the old one ended")
    func windowRestartsAtFirstRejection() {
        var limiter = RejectionLimiter(burst: 1, window: .seconds(10 as Int64))
        #expect(limiter.admit(1, at: at(0)).log)
        #expect(limiter.admit(1, at: at(100)) == (true, 1))
        #expect(limiter.admit(1, at: at(105)) == (false, 0))
        #expect(limiter.admit(1, at: at(110)) == (true, 2))
    }

    @Test("a clock going backwards does not reopen the window")
    func clockBackwards() {
        var limiter = RejectionLimiter(burst: 1, window: .seconds(10 as Int64))
        #expect(limiter.admit(1, at: at(100)).log)
        #expect(limiter.admit(1, at: at(0)) == (false, 0))
        #expect(limiter.admit(1, at: at(50)) == (false, 0))
        #expect(limiter.admit(1, at: at(110)) == (true, 3))
    }

    @Test("a flood costs at most burst entries per window", arguments: [1, 5, 20])
    func flood(burst: Int) {
        var limiter = RejectionLimiter(burst: burst, window: .seconds(10 as Int64))
        var entries = 0
        var reported = 0
        // 10,000 rejected lines over 100 s, one per 10 ms.
        for index in 0..<10_000 {
            let decision = limiter.admit(1, at: Timestamp(microseconds: at(0).microseconds + Int64(index) * 10_000))
            if decision.log {
                entries += 1
                reported += decision.count
            }
        }
        #expect(entries == burst * 10)
        // Only lines after the last entry are still unreported.
        #expect(reported > 10_000 - 1_000 && reported <= 10_000)
    }
}
