import Glibc
import SyncmonSystemd
import Testing

extension SystemIntegrationTests {
    /// ``SystemdNotifier`` against a datagram socket the test binds as `NOTIFY_SOCKET`.
    @Suite("sd_notify over a real socket")
    struct SystemdNotifierSocketTests {
        @Test("the exact datagrams of startup, status, watchdog, reload and shutdown", arguments: [false, true])
        func datagrams(abstractSocket: Bool) throws {
            let listener = try NotifySocketListener(abstract: abstractSocket)
            let environment = ProcessEnvironment([SystemdNotifier.notifySocketVariable: listener.address])
            defer { environment.restore() }
            let notifier = SystemdNotifier()

            #expect(notifier.isEnabled)
            #expect(try notifier.notify(.ready, .status("3 engines: 2 ok, 1 stalled")))
            #expect(try notifier.notify(.watchdog))
            #expect(try notifier.notify([.reloading, .status("reloading configuration")]))
            #expect(try notifier.notify(.ready))
            #expect(try notifier.notify(.stopping, .status("stopping\nnow")))

            #expect(try listener.receive() == "READY=1\nSTATUS=3 engines: 2 ok, 1 stalled")
            #expect(try listener.receive() == "WATCHDOG=1")
            #expect(try listener.receive() == "RELOADING=1\nSTATUS=reloading configuration")
            #expect(try listener.receive() == "READY=1")
            #expect(try listener.receive() == "STOPPING=1\nSTATUS=stopping now")
            #expect(!listener.hasPendingDatagram())
            // unset_environment was 0: the variable is still there for the next notification.
            #expect(getenv(SystemdNotifier.notifySocketVariable).map { String(cString: $0) } == listener.address)
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
