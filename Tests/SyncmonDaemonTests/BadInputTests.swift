import Foundation
import SyncmonTestSupport
import Testing

/// Bad lines on the push socket (docs/protocol.md#transports, docs/configuration.md#limits): counted, logged, and never a reason to drop
/// the connection or disturb other engines.
@Suite("Bad input on the push socket", .serialized)
struct BadInputTests {
    @Test("garbage is rejected with a counted reason while the connection and other engines go on")
    func garbageSurvived() async throws {
        try await withDaemon { daemon, _ in
            let other = try daemon.connect()
            try other.write(lines: [EventLine.make("bystander", "willFetchChanges")])

            let connection = try daemon.connect()
            try connection.write(lines: [EventLine.make("victim", "willFetchChanges")])
            try connection.write("{\"v\":1,\"engine\":\"victim\",\"type\":\n")  // truncated JSON
            try connection.write("this is not json\n")
            // Valid JSON but for an invalid UTF-8 sequence inside a string.
            try connection.write(Array("{\"v\":1,\"engine\":\"victim\",\"type\":\"heartbeat\",\"x\":\"".utf8) + [0xC3, 0x28, 0xFF] + Array("\"}\n".utf8))
            try connection.write("{\"v\":1,\"engine\":\"victim\",\"type\":\"heartbeat\",\"pad\":\"" + String(repeating: "x", count: 70_000) + "\"}\n")
            try connection.write(lines: [EventLine.make("victim", "noSuchEventType")])
            try connection.write(lines: ["{\"v\":2,\"engine\":\"victim\",\"type\":\"heartbeat\"}"])
            try connection.write(lines: ["{\"v\":1,\"engine\":\"bad/name\",\"type\":\"heartbeat\"}"])
            try connection.write("\n\r\n")  // blank lines: skipped, not rejected
            // Good lines after the garbage, on the same connection.
            try connection.write(lines: [
                EventLine.make("victim", "fetchedRecordZoneChanges", ["zone": "z", "modifications": 7, "deletions": 0]),
                EventLine.make("victim", "didFetchChanges"),
            ])
            try other.write(lines: [EventLine.make("bystander", "didFetchChanges")])

            let (met, rows) = await daemon.waitForStatus {
                phaseState($0, "victim/private", "import") == "succeeded" && phaseState($0, "bystander/private", "import") == "succeeded"
            }
            #expect(met, "rows: \(rows)")
            #expect(Set(rows.keys) == ["victim/private", "bystander/private"])

            var metrics = try daemon.metrics()
            let rejected = { (reason: String) in metrics.value("syncmon_events_rejected_total", ["reason": reason]) }
            #expect(rejected("malformed") == 3)
            #expect(rejected("too_large") == 1)
            #expect(rejected("unknown_type") == 1)
            #expect(rejected("unsupported_version") == 1)
            #expect(rejected("invalid_field") == 1)
            #expect(rejected("engine_limit") == 0)
            #expect(metrics.value("syncmon_records_fetched_total", ["engine": "victim", "change": "modification"]) == 7)
            // Every non-blank line counts as received.
            #expect(metrics.value("syncmon_events_received_total", ["transport": "push"]) == 12)

            // The connection is still open and read: one more line applies.
            try connection.write(lines: [EventLine.make("victim", "willSendChanges")])
            let more = await daemon.waitForStatus { phaseState($0, "victim/private", "export") == "in_progress" }
            #expect(more.met, "rows: \(more.rows)")
            metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_events_received_total", ["transport": "push"]) == 13)

            // Rejections are logged, rate-limited.
            let log = daemon.standardError
            #expect(log.contains("rejected"), "\(log)")
            #expect(log.components(separatedBy: "rejected ").count - 1 <= 5, "\(log)")
            connection.close()
            other.close()
        }
    }

    @Test("a large write is taken in whole: every line counted, bad ones rejected, seq order kept")
    func largeWrite() async throws {
        try await withDaemon { daemon, _ in
            // 1.5 MB in one write: the daemon reads it in large chunks, each decoded on two
            // cores. Every 1,000th line repeats the seq before it, a duplicate only when the
            // lines are applied in order; every 1,000th from the 500th is garbage.
            var text = ""
            var sequence = 0
            for index in 0..<10_000 {
                if index % 1_000 == 500 {
                    text += "this is not json\n"
                    continue
                }
                let seq = index % 1_000 == 999 ? sequence - 1 : sequence
                if seq == sequence { sequence += 1 }
                text += #"{"v":1,"engine":"bulk","seq":\#(seq),"type":"fetchedRecordZoneChanges","zone":"z","modifications":1,"deletions":0}"# + "\n"
            }
            let connection = try daemon.connect()
            try connection.write(text)
            connection.close()
            let counted = await Polling.until(timeout: .seconds(10), interval: .milliseconds(25)) {
                (try? daemon.metrics().value("syncmon_events_received_total", ["transport": "push"])) == 10_000
            }
            #expect(counted)
            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_events_rejected_total", ["reason": "malformed"]) == 10)
            // 10,000 lines, less 10 garbage and 10 duplicates.
            #expect(metrics.value("syncmon_records_fetched_total", ["engine": "bulk", "change": "modification"]) == 9_980)
        }
    }

    @Test("a line exactly at the 64 KiB limit is accepted; one byte more is too large")
    func lineLimit() async throws {
        try await withDaemon { daemon, _ in
            func padded(_ engine: String, length: Int) -> String {
                let head = "{\"v\":1,\"engine\":\"\(engine)\",\"type\":\"heartbeat\",\"pad\":\""
                let tail = "\"}"
                return head + String(repeating: "x", count: length - head.utf8.count - tail.utf8.count) + tail
            }
            let connection = try daemon.connect()
            // The limit excludes the \n and a trailing \r.
            try connection.write(padded("exact", length: 65_536) + "\r\n")
            try connection.write(padded("over", length: 65_537) + "\n")
            try connection.write(lines: [EventLine.make("after", "heartbeat")])
            let (met, rows) = await daemon.waitForStatus { $0["after/private"] != nil }
            #expect(met)
            #expect(rows["exact/private"] != nil)
            #expect(rows["over/private"] == nil)
            #expect(try daemon.metrics().value("syncmon_events_rejected_total", ["reason": "too_large"]) == 1)
            connection.close()
        }
    }

    @Test("past --max-engines, new pairs are rejected with engine_limit and tracked ones go on")
    func engineLimit() async throws {
        try await withDaemon(arguments: ["--max-engines", "2"]) { daemon, _ in
            try daemon.send(lines: [
                EventLine.make("one", "willFetchChanges"),
                EventLine.make("two", "willFetchChanges"),
                EventLine.make("three", "willFetchChanges"),
                EventLine.make("one", "didFetchChanges", ["database": "shared"]),
                EventLine.make("one", "didFetchChanges"),
            ])
            let (met, rows) = await daemon.waitForStatus { phaseState($0, "one/private", "import") == "succeeded" }
            #expect(met, "rows: \(rows)")
            #expect(Set(rows.keys) == ["one/private", "two/private"])
            let metrics = try daemon.metrics()
            #expect(metrics.value("syncmon_events_rejected_total", ["reason": "engine_limit"]) == 2)
            #expect(metrics.value("syncmon_tracked_engines") == 2)
        }
    }

    @Test("past max-connections a new push connection is refused; closing one makes room")
    func connectionLimit() async throws {
        let directory = try TemporaryDirectory(prefix: "smd")
        defer { directory.remove() }
        let config = directory.path("syncmon.conf")
        try "max-connections = 2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])
        let first = try daemon.connect()
        let second = try daemon.connect()
        try first.write(lines: [EventLine.make("first", "heartbeat")])
        try second.write(lines: [EventLine.make("second", "heartbeat")])
        #expect(await daemon.waitForStatus { $0.count == 2 }.met)

        let third = try daemon.connect()
        #expect(await third.waitForPeerClose(), "the third connection was not closed")
        try? third.write(lines: [EventLine.make("third", "heartbeat")])
        #expect(try daemon.status()["third/private"] == nil)
        #expect(daemon.standardError.contains("refusing push connection"), "\(daemon.standardError)")

        first.close()
        // The daemon notices the close asynchronously: retry until a new connection is accepted.
        let accepted = await Polling.until(timeout: .seconds(5)) {
            guard let fourth = try? daemon.connect() else { return false }
            defer { fourth.close() }
            try? fourth.write(lines: [EventLine.make("fourth", "heartbeat")])
            return await daemon.waitForStatus(timeout: .milliseconds(200)) { $0["fourth/private"] != nil }.met
        }
        #expect(accepted)
        second.close()
        third.close()
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("a last line without a newline is still read when the connection closes")
    func lastLineWithoutNewline() async throws {
        try await withDaemon { daemon, _ in
            let connection = try daemon.connect()
            try connection.write(EventLine.make("tail", "heartbeat") + "\n" + EventLine.make("tail", "willSendChanges"))
            connection.close()
            #expect(await daemon.waitForStatus { phaseState($0, "tail/private", "export") == "in_progress" }.met)
        }
    }
}
