import Glibc
import SyncmonSockets
import SyncmonSystemd
import SyncmonTestSupport
import Testing

extension SystemIntegrationTests {
    /// ``SystemdNotifier`` against a datagram socket the test binds as `NOTIFY_SOCKET`.
    @Suite("sd_notify over a real socket")
    struct SystemdNotifierSocketTests {
        @Test("the exact datagrams of startup, status, watchdog, reload and shutdown", arguments: [false, true])
        func datagrams(abstractSocket: Bool) async throws {
            let notify = try NotifySocket.temporary(abstract: abstractSocket)
            defer { notify.close() }
            let environment = ProcessEnvironment([SystemdNotifier.notifySocketVariable: notify.address.description])
            defer { environment.restore() }
            let notifier = SystemdNotifier()

            #expect(notifier.isEnabled)
            #expect(try notifier.notify(.ready, .status("3 engines: 2 ok, 1 stalled")))
            #expect(try notifier.notify(.watchdog))
            #expect(try notifier.notify([.reloading, .status("reloading configuration")]))
            #expect(try notifier.notify(.ready))
            #expect(try notifier.notify(.stopping, .status("stopping\nnow")))

            // The last one sent arrives last: then all are in, and no more than these five came.
            _ = await notify.waitFor("STOPPING=1", timeout: .seconds(5))
            #expect(
                notify.datagrams.map(\.text) == [
                    "READY=1\nSTATUS=3 engines: 2 ok, 1 stalled",
                    "WATCHDOG=1",
                    "RELOADING=1\nSTATUS=reloading configuration",
                    "READY=1",
                    "STOPPING=1\nSTATUS=stopping now",
                ]
            )
            // unset_environment was 0: the variable is still there for the next notification.
            #expect(getenv(SystemdNotifier.notifySocketVariable).map { String(cString: $0) } == notify.address.description)
        }

        @Test("without NOTIFY_SOCKET nothing is sent and nothing fails")
        func noServiceManager() throws {
            let environment = ProcessEnvironment([SystemdNotifier.notifySocketVariable: nil])
            defer { environment.restore() }
            let notifier = SystemdNotifier()
            #expect(!notifier.isEnabled)
            #expect(try notifier.notify(.ready) == false)
            #expect(try notifier.notify([]) == false)
        }

        @Test("a socket nobody listens on is an error")
        func deadSocket() {
            let environment = ProcessEnvironment([SystemdNotifier.notifySocketVariable: "/nonexistent/syncmon/notify.sock"])
            defer { environment.restore() }
            #expect(throws: SystemdError.self) {
                try SystemdNotifier().notify(.ready)
            }
        }
    }

    /// The watchdog interval from `WATCHDOG_USEC` and `WATCHDOG_PID`.
    @Suite("Watchdog interval")
    struct WatchdogIntervalTests {
        @Test(
            "half of WATCHDOG_USEC when meant for this process, nil when off or meant for another",
            arguments: [
                (String?.some("30000000"), String?.some("self"), Duration?.some(.seconds(15))),
                ("30000000", nil, .seconds(15)),
                ("1000000", "self", .milliseconds(500)),
                (nil, nil, nil),
                ("30000000", "other", nil),
            ]
        )
        func interval(microseconds: String?, pid: String?, expected: Duration?) throws {
            let pidValue: String? =
                switch pid {
                case "self": String(getpid())
                case "other": String(getpid() + 1)
                default: nil
                }
            let environment = ProcessEnvironment(["WATCHDOG_USEC": microseconds, "WATCHDOG_PID": pidValue])
            defer { environment.restore() }
            #expect(try SystemdNotifier().watchdogInterval() == expected)
        }

        @Test("a malformed WATCHDOG_USEC is an error")
        func malformed() {
            let environment = ProcessEnvironment(["WATCHDOG_USEC": "soon", "WATCHDOG_PID": nil])
            defer { environment.restore() }
            #expect(throws: SystemdError.self) {
                try SystemdNotifier().watchdogInterval()
            }
        }
    }
}
