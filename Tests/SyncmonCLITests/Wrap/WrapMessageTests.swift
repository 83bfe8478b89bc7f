import Foundation
import SyncmonTestSupport
import Testing

/// A failed wrapped run says why in the tool's own words (docs/wrap.md, docs/protocol.md#phases): the
/// message reaches status JSON (`failing.error.message`) and the journal
/// (`SYNCMON_ERROR_MESSAGE`).
@Suite("syncmon wrap failure messages", .serialized)
struct WrapMessageTests {
    /// The export's outstanding failure of `key`.
    static func failingError(_ rows: [String: [String: Any]], _ key: String) -> [String: Any]? {
        ((rows[key]?["export"] as? [String: Any])?["failing"] as? [String: Any])?["error"] as? [String: Any]
    }

    @Test("a wrapped rsync of a missing directory shows rsync's own words in status JSON and the journal")
    func rsyncMissingDirectory() async throws {
        let journald = Journal.ensureJournald()
        if let journald, ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("journald is required when CI is set: \(journald)") }
        let test = try TemporaryDirectory(prefix: "smwm")
        defer { test.remove() }
        let rsync = try RealTools.require("rsync")
        let missing = test.path("photos-\(getpid())")
        let daemon = try await DaemonProcess.start(in: test.path, logTarget: journald == nil ? "journald" : "stderr")
        let engine = "rsync-missing-\(getpid())"
        let wrap = try WrapRealToolTests.wrap(engine, [rsync, "-a", missing + "/", test.path("dest")], daemon: daemon, in: test)
        #expect(await wrap.waitForExit(timeout: .seconds(30)) == 23, "\(wrap.standardError)")
        let key = "\(engine)/private"
        let failed = await daemon.waitForStatus { Self.failingError($0, key)?["message"] != nil }
        #expect(failed.met, "\(failed.rows[key] ?? [:])")
        let message = Self.failingError(failed.rows, key)?["message"] as? String ?? ""
        // rsync 3.2 writes `rsync: change_dir "…"`, 3.3 and later `rsync: [sender] change_dir "…"`.
        #expect(message.hasPrefix("rsync: "), "\(message)")
        #expect(message.contains("change_dir \"\(missing)\" failed: No such file or directory (2)"), "\(message)")
        #expect(message.utf8.count <= 256)
        if journald == nil {
            let entries = try await Journal.waitForEntries(matching: ["SYSLOG_IDENTIFIER": "syncmon", "SYNCMON_ENGINE": engine]) {
                $0.contains { $0["SYNCMON_SUMMARY"] == "error" }
            }
            let entry = entries.first { $0["SYNCMON_SUMMARY"] == "error" }
            #expect(entry?["SYNCMON_ERROR_MESSAGE"] == message, "\(entries)")
            #expect(entry?["SYNCMON_ERROR_CODE"] == "partialTransfer", "\(entries)")
        }
        await daemon.stop()
    }

    @Test("any other command's last line on standard error is its failure's message, and is still shown")
    func otherCommandLastLine() async throws {
        let test = try TemporaryDirectory(prefix: "smwm")
        defer { test.remove() }
        let daemon = try await DaemonProcess.start(in: test.path)
        let script = "echo progress; echo 'first complaint' >&2; printf 'disk full on /mnt\\t(28)\\033[0m\\n\\n' >&2; exit 3"
        let wrap = try WrapRealToolTests.wrap("other", ["sh", "-c", script], daemon: daemon, in: test)
        #expect(await wrap.waitForExit(timeout: .seconds(15)) == 3)
        #expect(wrap.standardError.contains("first complaint"))
        let failed = await daemon.waitForStatus { Self.failingError($0, "other/private")?["message"] != nil }
        #expect(Self.failingError(failed.rows, "other/private")?["message"] as? String == #"disk full on /mnt\t(28)\u001b[0m"#)
        #expect(Self.failingError(failed.rows, "other/private")?["code"] as? String == "exit3")
        await daemon.stop()
    }
}
