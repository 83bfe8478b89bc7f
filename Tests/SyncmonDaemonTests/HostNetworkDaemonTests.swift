import Foundation
import SyncmonCore
import SyncmonDaemon
import SyncmonHost
import SyncmonTestSupport
import Testing

/// The real daemon following its host's network (docs/operations.md, "Host network view"): run
/// inside a network namespace whose default route and link the test removes and brings back,
/// with engines writing from outside through the path-bound events socket; and run where
/// rtnetlink cannot be opened.
@Suite("Host network: the daemon", .serialized)
struct HostNetworkDaemonTests {
    /// The daemon's HTTP port inside the namespace (a fresh namespace has every port free).
    static let port = 19478

    /// `GET path` from inside the namespace, where the daemon listens.
    static func get(_ path: String, in namespaces: NetworkNamespaces) async throws -> String {
        let result = try await namespaces.exec(["curl", "-fsS", "--max-time", "2", "http://127.0.0.1:\(Self.port)\(path)"])
        guard result.status == 0 else { throw TestSupportError("curl \(path) exited \(result.status): \(result.errors)") }
        return result.output
    }

    static func metrics(in namespaces: NetworkNamespaces) async throws -> MetricsText {
        try MetricsText(await Self.get("/metrics", in: namespaces))
    }

    /// Status rows keyed by "engine/database".
    static func rows(in namespaces: NetworkNamespaces) async throws -> [String: [String: Any]] {
        let data = Data(try await Self.get("/api/v1/status", in: namespaces).utf8)
        let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var rows: [String: [String: Any]] = [:]
        for row in document?["engines"] as? [[String: Any]] ?? [] {
            rows["\(row["engine"] ?? "?")/\(row["database"] ?? "?")"] = row
        }
        return rows
    }

    /// Polls until the host gauge reads `value`; how long that took.
    static func waitForHost(_ value: Double, in namespaces: NetworkNamespaces, timeout: Duration = .seconds(5)) async -> Duration? {
        let start = ContinuousClock.now
        let seen = await Polling.until(timeout: timeout, interval: .milliseconds(20)) {
            await (try? Self.metrics(in: namespaces).value("syncmon_host_network_up")) == value
        }
        return seen ? ContinuousClock.now - start : nil
    }

    @Test("offline seen at once, no stall while offline, a self-speaking engine unaffected, the full threshold after the return")
    func offlineAndBack() async throws {
        guard let ip = try NetworkNamespaces.requirements() else { return }
        guard ExternalCommand.find("curl") != nil else {
            Issue.record("curl is required (scripts/install-deps.sh --test)")
            return
        }
        let namespaces = try await NetworkNamespaces(ip: ip)
        defer { namespaces.remove() }
        let directory = try TemporaryDirectory(prefix: "smn")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(
            in: directory.path,
            arguments: ["--no-progress-after", "6s", "--host-network", "auto"],
            port: Self.port,
            executable: try namespaces.wrapper(for: SyncmonProcess.binaryPath, in: directory.path)
        )
        do {
            try await Self.scenario(daemon: daemon, namespaces: namespaces)
            await daemon.stop()
        } catch {
            await daemon.kill()
            throw TestSupportError("\(error)\n--- daemon stderr ---\n\(daemon.standardError)")
        }
    }

    static func scenario(daemon: DaemonProcess, namespaces: NetworkNamespaces) async throws {
        let job = uniqueEngine("job"), speaker = uniqueEngine("self")
        let (jobPair, speakerPair) = ("\(job)/private", "\(speaker)/private")
        // Online from the first view: the dump at start.
        await #expect(try Self.metrics(in: namespaces).value("syncmon_host_network_up") == 1)

        // A wrap-like job: an export opened, never ended, no word on its network. And an engine
        // that speaks for itself. Both written from outside the namespace.
        let started = ContinuousClock.now
        try daemon.send(lines: [
            line(job, "containerEvent", ["kind": "export", "id": "run-1", "started": RFC3339.format(WallClock.now())]),
            line(speaker, "networkStatus", ["available": true]),
        ])
        let up = await Polling.until(timeout: .seconds(5)) {
            guard let rows = try? await Self.rows(in: namespaces) else { return false }
            return summary(rows, jobPair) == "in_progress" && field(rows, jobPair, "network") == "available"
                && field(rows, speakerPair, "network") == "available"
        }
        #expect(up, "both engines in, the job in_progress with the host's network")

        // Offline: the default route goes, then the link.
        try await namespaces.removeDefaultRoute()
        let offline = await Self.waitForHost(0, in: namespaces)
        #expect(offline.map { $0 < .seconds(2) } == true, "offline seen after \(String(describing: offline))")
        try await namespaces.setLink(up: false)
        var rows = try await Self.rows(in: namespaces)
        #expect(summary(rows, jobPair) == "no_network")
        #expect(field(rows, jobPair, "network") == "unavailable")
        #expect(field(rows, speakerPair, "network") == "available")
        #expect(summary(rows, speakerPair) == "not_started")
        let metrics = try await Self.metrics(in: namespaces)
        #expect(metrics.value("syncmon_status", ["engine": job, "status": "no_network"]) == 1)
        #expect(metrics.value("syncmon_network_status", ["engine": job, "status": "unavailable"]) == 1)
        #expect(metrics.value("syncmon_network_status", ["engine": speaker, "status": "available"]) == 1)

        // Until well past the 6 s threshold since the export began: no stall at any look.
        let noStall = try await Polling.holds(for: started + .seconds(8) - ContinuousClock.now, interval: .milliseconds(250)) {
            rows = try await Self.rows(in: namespaces)
            return summary(rows, jobPair) == "no_network" && (rows[jobPair]?["stalled"] as? [String]) == []
        }
        #expect(noStall, "offline past the threshold: \(rows[jobPair] ?? [:])")
        await #expect(try Self.metrics(in: namespaces).value("syncmon_stalled", ["engine": job, "reason": "no_progress"]) == 0)

        // Back: the link, then the route.
        try await namespaces.setLink(up: true)
        let returnStarted = ContinuousClock.now
        try await namespaces.addDefaultRoute()
        let online = await Self.waitForHost(1, in: namespaces)
        #expect(online.map { $0 < .seconds(2) } == true, "online seen after \(String(describing: online))")
        let returnSeen = ContinuousClock.now
        rows = try await Self.rows(in: namespaces)
        #expect(summary(rows, jobPair) == "in_progress")
        #expect(field(rows, jobPair, "network") == "available")

        // The stall fires a full 6 s after the return, not before.
        let stalled = await Polling.value(timeout: .seconds(12), interval: .milliseconds(100)) { () -> ContinuousClock.Instant? in
            guard let rows = try? await Self.rows(in: namespaces) else { return nil }
            return summary(rows, jobPair) == "stalled" ? ContinuousClock.now : nil
        }
        let firedAfter = try #require(stalled) - returnStarted
        #expect(firedAfter >= .milliseconds(5900), "stalled \(firedAfter) after the return")
        #expect(stalled! - returnSeen <= .milliseconds(7500), "stalled \(firedAfter) after the return")
        rows = try await Self.rows(in: namespaces)
        #expect((rows[jobPair]?["stalled"] as? [String]) == ["no_progress"])
        #expect(field(rows, speakerPair, "network") == "available")

        // One journal entry per change of the host, not per pair.
        let log = daemon.standardError
        #expect(log.components(separatedBy: "host network offline").count - 1 == 1, "\(log)")
        #expect(log.components(separatedBy: "host network online again").count - 1 == 1, "\(log)")
        print(
            "host network namespace test: offline seen after \(offline.map { "\($0)" } ?? "-"), online after \(online.map { "\($0)" } ?? "-"), stall \(firedAfter) after the return"
        )
    }

    @Test("rtnetlink refused (EAFNOSUPPORT, as under RestrictAddressFamilies=): logged once, no gauge, network unknown")
    func netlinkUnavailable() async throws {
        let directory = try TemporaryDirectory(prefix: "smu")
        defer { directory.remove() }
        let library = try await Self.buildNoNetlinkLibrary(in: directory)
        guard let library else { return }
        try await withDaemon(arguments: ["--host-network", "auto"], environment: ["LD_PRELOAD": library]) { daemon, _ in
            let job = uniqueEngine("job")
            try daemon.send(lines: [line(job, "containerEvent", ["kind": "export", "id": "run-1", "started": RFC3339.format(WallClock.now())])])
            let (met, rows) = await daemon.waitForStatus { summary($0, "\(job)/private") == "in_progress" }
            #expect(met)
            #expect(field(rows, "\(job)/private", "network") == "unknown")
            let metrics = try daemon.metrics()
            #expect(metrics.types["syncmon_host_network_up"] == "gauge")
            #expect(metrics.samples("syncmon_host_network_up").isEmpty)
            #expect(metrics.value("syncmon_network_status", ["engine": job, "status": "unknown"]) == 1)
            let log = daemon.standardError
            #expect(log.components(separatedBy: "cannot follow the host network").count - 1 == 1, "\(log)")
            #expect(log.contains("Address family not supported by protocol"), "\(log)")
        }
    }

    /// A preload library whose `socket()` refuses AF_NETLINK with EAFNOSUPPORT, built with the
    /// toolchain's clang; `nil` (after recording why) when no compiler is found.
    static func buildNoNetlinkLibrary(in directory: TemporaryDirectory) async throws -> String? {
        guard let compiler = ExternalCommand.find("clang") ?? ExternalCommand.find("cc") else {
            if ExternalCommand.isCI { Issue.record("no C compiler (the Swift toolchain's clang) to build the preload library"); return nil }
            try Test.cancel("no C compiler")
        }
        let source = directory.path("no-netlink.c")
        let library = directory.path("no-netlink.so")
        try """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <sys/socket.h>
        int socket(int domain, int type, int protocol) {
            static int (*real)(int, int, int);
            if (domain == AF_NETLINK) { errno = EAFNOSUPPORT; return -1; }
            if (!real) real = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
            return real(domain, type, protocol);
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let result = try await ExternalCommand.run(compiler, ["-shared", "-fPIC", "-o", library, source, "-ldl"])
        guard result.status == 0 else { throw TestSupportError("\(compiler) exited \(result.status): \(result.combined)") }
        return library
    }
}
