import Foundation
import SyncmonCore
import SyncmonTestSupport
import Testing

/// The canary in the real daemon (docs/canary.md): its file written at start and every
/// interval, its pair there from the start and `succeeded` while a peer moves and
/// acknowledges, `seq` persisted across a restart, PATH refused at start unless it is a real
/// directory, and faults (hostile peer files, PATH removed while running) counted, never fatal.
@Suite("Canary in the daemon", .serialized)
struct CanaryDaemonTests {
    /// A configuration with one canary `lab/shared` in `folder`, host `me`, every second.
    static func config(_ folder: String, interval: String = "1s", extra: String = "") -> String {
        """
        [canary lab/shared]
        path = \(folder)
        host = me
        interval = \(interval)
        late-after = 30s
        \(extra)
        """
    }

    static func start(_ directory: TemporaryDirectory, folder: String, interval: String = "1s") async throws -> DaemonProcess {
        let config = directory.path + "/syncmon.conf"
        try Self.config(folder, interval: interval).write(toFile: config, atomically: true, encoding: .utf8)
        return try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])
    }

    static func ownFile(_ folder: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: folder + "/.syncmon/canary-me.json") else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    static func writePeer(_ folder: String, seq: Int, seen: Int) throws {
        let text = #"{"v":1,"host":"peer","seq":\#(seq),"written":"2026-11-26T12:00:00Z","seen":{"me":\#(seen)}}"#
        try text.write(toFile: folder + "/.syncmon/canary-peer.json", atomically: true, encoding: .utf8)
    }

    static func canary(_ rows: [String: [String: Any]]) -> [String: Any]? {
        rows["lab/shared"]?["canary"] as? [String: Any]
    }

    @Test("a peer's move is acknowledged as soon as it is read, not at the next interval: same seq, the peer's new seq seen")
    func acknowledgedAtOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        defer { directory.remove() }
        let folder = directory.path + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let daemon = try await Self.start(directory, folder: folder, interval: "1h")
        #expect(await Polling.until(timeout: .seconds(10)) { Self.ownFile(folder)?["seq"] as? Int == 1 })
        try Self.writePeer(folder, seq: 1, seen: 0)
        #expect(await daemon.waitForStatus { (Self.canary($0)?["peers"] as? [[String: Any]])?.first?["host"] as? String == "peer" }.met)
        try Self.writePeer(folder, seq: 2, seen: 1)
        // An interval of an hour: only the acknowledgement can say seq 2 within seconds.
        let acknowledged = await Polling.until(timeout: .seconds(5)) { (Self.ownFile(folder)?["seen"] as? [String: Int])?["peer"] == 2 }
        #expect(acknowledged, "\(Self.ownFile(folder) ?? [:])")
        #expect(Self.ownFile(folder)?["seq"] as? Int == 1)
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("a canary alone: written at start, its pair there from the start, succeeded once a peer moves and acknowledges")
    func canaryAlone() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        defer { directory.remove() }
        let folder = directory.path + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let daemon = try await Self.start(directory, folder: folder)
        let started = await daemon.waitForStatus { rows in
            summary(rows, "lab/shared") == "not_started" && Self.canary(rows)?["host"] as? String == "me"
        }
        #expect(started.met, "pair not there from the start: \(started.rows)")
        #expect(Self.ownFile(folder)?["seq"] as? Int ?? 0 >= 1)
        #expect(Self.ownFile(folder)?["v"] as? Int == 1)
        let mode = (try FileManager.default.attributesOfItem(atPath: folder + "/.syncmon/canary-me.json")[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o644, "readable by the engine whatever the umask")

        try Self.writePeer(folder, seq: 1, seen: 0)
        #expect(await daemon.waitForStatus { (Self.canary($0)?["peers"] as? [[String: Any]])?.first?["host"] as? String == "peer" }.met)
        let ownSeq = Self.ownFile(folder)?["seq"] as? Int ?? 0
        try Self.writePeer(folder, seq: 2, seen: ownSeq)
        let crossed = await daemon.waitForStatus { rows in
            let peer = (Self.canary(rows)?["peers"] as? [[String: Any]])?.first
            return summary(rows, "lab/shared") == "succeeded" && peer?["roundTripSeconds"] is Double && peer?["lastMoved"] is String
        }
        #expect(crossed.met, "not succeeded with a round trip: \(crossed.rows)")
        #expect(phaseState(crossed.rows, "lab/shared", "import") == "succeeded")
        #expect(phaseState(crossed.rows, "lab/shared", "export") == "succeeded")
        // The next file says what was seen.
        #expect(await Polling.until(timeout: .seconds(5)) { (Self.ownFile(folder)?["seen"] as? [String: Int])?["peer"] == 2 })
        let metrics = try daemon.metrics()
        #expect(metrics.samples("syncmon_canary_peers", ["engine": "lab"]).first?.number == 1)
        #expect(metrics.samples("syncmon_canary_round_trip_seconds", ["peer": "peer"]).count == 1)
        #expect(metrics.samples("syncmon_canary_last_moved_timestamp_seconds", ["peer": "peer"]).count == 1)
        #expect(metrics.samples("syncmon_stalled", ["engine": "lab", "reason": "canary_late"]).first?.number == 0)
        #expect(await daemon.stop() == .exited(0))

        // A restart goes on from the persisted seq.
        let before = Self.ownFile(folder)?["seq"] as? Int ?? 0
        let again = try await Self.start(directory, folder: folder)
        #expect(await Polling.until(timeout: .seconds(5)) { (Self.ownFile(folder)?["seq"] as? Int ?? 0) > before })
        #expect(await again.stop() == .exited(0))
    }

    @Test("hostile peer files are counted and skipped; a symbolic link is never followed; the folder removed is a write error, not a crash")
    func faults() async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        defer { directory.remove() }
        let folder = directory.path + "/folder"
        try FileManager.default.createDirectory(atPath: folder + "/.syncmon", withIntermediateDirectories: true)
        let outside = directory.path + "/outside.json"
        try #"{"v":1,"host":"link","seq":1,"written":"2026-11-26T12:00:00Z","seen":{}}"#.write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/.syncmon/canary-link.json", withDestinationPath: outside)
        try FileManager.default.createDirectory(atPath: folder + "/.syncmon/canary-dir.json", withIntermediateDirectories: false)
        try String(repeating: " ", count: 70_000).write(toFile: folder + "/.syncmon/canary-big.json", atomically: true, encoding: .utf8)
        try "{".write(toFile: folder + "/.syncmon/canary-junk.json", atomically: true, encoding: .utf8)
        let daemon = try await Self.start(directory, folder: folder)
        #expect(
            await Polling.until(timeout: .seconds(10)) {
                (try? daemon.metrics().samples("syncmon_canary_errors_total", ["engine": "lab", "reason": "malformed"]).first?.number ?? 0) ?? 0 >= 4
            })
        let rows = try daemon.status()
        #expect((Self.canary(rows)?["peers"] as? [[String: Any]])?.isEmpty == true, "the link was followed: \(rows)")

        try FileManager.default.removeItem(atPath: folder)
        let failing = await daemon.waitForStatus { rows in (Self.canary(rows)?["error"] as? String)?.contains(folder) == true }
        #expect(failing.met, "no error naming \(folder): \(failing.rows)")
        #expect(
            await Polling.until(timeout: .seconds(5)) {
                (try? daemon.metrics().samples("syncmon_canary_errors_total", ["reason": "write"]).first?.number ?? 0) ?? 0 >= 1
            })
        #expect(await Polling.until(timeout: .seconds(5)) { daemon.standardError.contains("canary error (write") })
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let back = await daemon.waitForStatus { rows in Self.canary(rows)?["error"] is NSNull }
        #expect(back.met, "the error did not clear: \(back.rows)")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("PATH must be an existing directory and not a symbolic link: exit 78 naming it", arguments: ["missing", "link", "file"])
    func refusedAtStart(_ kind: String) async throws {
        let directory = try TemporaryDirectory(prefix: "smc")
        defer { directory.remove() }
        let path = directory.path + "/" + kind
        switch kind {
        case "link":
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: directory.path)
        case "file":
            try "x".write(toFile: path, atomically: true, encoding: .utf8)
        default:
            break
        }
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--canary", "lab/shared=\(path)"], waitForReady: false)
        #expect(await daemon.waitForExit() == .exited(78))
        #expect(daemon.standardError.contains(path), "stderr: \(daemon.standardError)")
    }
}
