import Logging
import SyncmonSystemd
import Testing

@testable import syncmon

/// `syncmon wrap`'s own log lines read like the daemon's terminal line.
@Suite("syncmon wrap: log lines")
struct WrapLogHandlerTests {
    @Test("time, level, the job's pair, what happened, on one line")
    func line() {
        let time = LogTime(microsecondsSinceEpoch: 1_795_968_141_123_000)
        #expect(
            WrapLogHandler.line(time: time, level: .warning, pair: "backup/private", text: "Lost the connection\n(socket: /run/s)")
                == "2026-11-29T16:02:21.123Z warning backup/private: Lost the connection\\n(socket: /run/s)")
    }
}
