import NIOCore
import SyncmonHost
import Testing

@testable import SyncmonDaemon

/// Where a user's daemon reads its configuration and where clients find its HTTP listener
/// (docs/user-sessions.md).
@Suite("A user's daemon: configuration file and status URL")
struct UserDaemonPathsTests {
    @Test(
        "the configuration files, first readable wins",
        arguments: [
            (["XDG_CONFIG_HOME": "/home/a/.cfg", "HOME": "/home/a"], true, ["/etc/syncmon/syncmon.conf"]),
            (["XDG_CONFIG_HOME": "/home/a/.cfg", "HOME": "/home/a"], false, ["/home/a/.cfg/syncmon/syncmon.conf", "/etc/syncmon/syncmon.conf"]),
            (["XDG_CONFIG_HOME": "", "HOME": "/home/a"], false, ["/home/a/.config/syncmon/syncmon.conf", "/etc/syncmon/syncmon.conf"]),
            ([:], false, ["/etc/syncmon/syncmon.conf"]),
        ] as [([String: String], Bool, [String])]
    )
    func configFiles(environment: [String: String], isRoot: Bool, expected: [String]) {
        #expect(DefaultPaths.configFiles(environment: environment, isRoot: isRoot) == expected)
    }

    /// A user daemon's socket and URL file under /run/user/1000, a system daemon's under /run/syncmon.
    static func statusURL(root: Bool = false, user: String? = nil, system: String? = nil, userSocket: Bool = true) -> String {
        let files = ["/run/user/1000/syncmon/http-url": user, "/run/syncmon/http-url": system]
        return DefaultPaths.clientStatusURL(
            environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil },
            isRoot: root,
            userID: 1000,
            exists: { $0 == "/run/syncmon/events.sock" || ($0 == "/run/user/1000/syncmon/events.sock" && userSocket) },
            read: { files[$0] ?? nil }
        )
    }

    @Test("the status URL: the user's own daemon's, the system's as root or without one, else the default")
    func statusURLs() {
        #expect(Self.statusURL(user: "http://127.0.0.1:9479\n", system: "http://127.0.0.1:9478\n") == "http://127.0.0.1:9479")
        #expect(Self.statusURL(root: true, user: "http://127.0.0.1:9479\n", system: "https://[::1]:9478\n") == "https://[::1]:9478")
        #expect(Self.statusURL(user: "http://127.0.0.1:9479", system: "http://127.0.0.1:9500", userSocket: false) == "http://127.0.0.1:9500")
        #expect(Self.statusURL() == "http://127.0.0.1:9478")
        #expect(Self.statusURL(user: "garbage") == "http://127.0.0.1:9478")
        #expect(Self.statusURL(user: "") == "http://127.0.0.1:9478")
    }

    @Test(
        "the URL written beside the socket: loopback for a listener on every interface, https with TLS",
        arguments: [
            ("0.0.0.0", 9479, false, "http://127.0.0.1:9479"),
            ("127.0.0.1", 9478, true, "https://127.0.0.1:9478"),
            ("::", 9480, false, "http://[::1]:9480"),
            ("::1", 9481, false, "http://[::1]:9481"),
        ] as [(String, Int, Bool, String)]
    )
    func listenURL(ip: String, port: Int, tls: Bool, expected: String) throws {
        let address = try SocketAddress(ipAddress: ip, port: port)
        #expect(ListenURLFile.url(for: address, tls: tls) == expected)
    }

    @Test("only a user's daemon moves off a taken default port")
    func movesOffTakenPort() {
        #expect(DaemonConfiguration(environment: [:], isRoot: false).movesOffTakenDefaultPort)
        #expect(!DaemonConfiguration(environment: [:], isRoot: true).movesOffTakenDefaultPort)
        #expect(ListenAddress.fallbackPorts.first == 9479)
    }
}
