import SyncmonSystemd
import Testing

/// The sd_notify payloads (docs/operations.md#systemd).
@Suite("sd_notify messages")
struct NotifyMessageTests {
    @Test(
        "each message's assignment",
        arguments: [
            (NotifyMessage.ready, "READY=1"),
            (.reloading, "RELOADING=1"),
            (.stopping, "STOPPING=1"),
            (.watchdog, "WATCHDOG=1"),
            (.status("3 engines: 2 ok, 1 stalled"), "STATUS=3 engines: 2 ok, 1 stalled"),
            (.status(""), "STATUS="),
        ]
    )
    func assignments(message: NotifyMessage, assignment: String) {
        #expect(message.assignment == assignment)
    }

    @Test("a status stays one line")
    func statusSingleLine() {
        #expect(NotifyMessage.status("one\ntwo\r\tthree").assignment == "STATUS=one two  three")
    }

    @Test("messages sent together are one assignment per line")
    func payload() {
        #expect(NotifyMessage.payload([.ready, .status("ok")]) == "READY=1\nSTATUS=ok")
        #expect(NotifyMessage.payload([.reloading]) == "RELOADING=1")
        #expect(NotifyMessage.payload([]) == "")
    }

    @Test("nothing sent needs systemd 253 (no MONOTONIC_USEC)")
    func noMonotonic() {
        let all: [NotifyMessage] = [.ready, .reloading, .stopping, .watchdog, .status("x")]
        #expect(!NotifyMessage.payload(all).contains("MONOTONIC_USEC"))
    }

    @Test("the watchdog is fed at half its timeout", arguments: [(30_000_000, 15), (1_000_000, 0.5), (0, 0)])
    func keepAlive(microseconds: UInt64, seconds: Double) {
        #expect(
            SystemdNotifier.keepAliveInterval(watchdogTimeoutMicroseconds: microseconds)
                == .milliseconds(Int64(seconds * 1_000))
        )
    }
}
