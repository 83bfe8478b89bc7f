import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--subscribe file:/path`: following an append-only JSONL file like `tail -F`, across
/// truncation, rotation and daemon restarts, counted through `/metrics`.
@Suite("Subscribe: file sources")
struct SubscribeFileTests {
    static func line(_ engine: String) -> String {
        SubscribeStreamTests.fetchedLine(engine) + "\n"
    }

    static func append(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TestSupportError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw TestSupportError("write \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func lines(_ engine: String, _ count: Int) -> String {
        String(repeating: Self.line(engine), count: count)
    }

    @Test("appends, a partial line, truncation and rotation (rename + recreate) are each read exactly once")
    func followAcrossTruncationAndRotation() async throws {
        let engine = uniqueEngine("fl")
        try await withDaemonAndFile(prepare: { path in
            // Lines written before the daemon starts are history: it starts at the end.
            try Self.append(Self.lines(engine, 3), to: path)
        }) { daemon, path in
            try Self.append(Self.lines(engine, 2), to: path)
            await SubscribeStreamTests.expectExactly(2, daemon, engine)

            // A line written in two pieces is read once it is complete.
            let whole = Self.line(engine)
            let cut = whole.index(whole.startIndex, offsetBy: 20)
            try Self.append(String(whole[..<cut]), to: path)
            #expect(await Polling.holds(for: .milliseconds(600)) { SubscribeStreamTests.fetched(daemon, engine) == 2 })
            try Self.append(String(whole[cut...]), to: path)
            await SubscribeStreamTests.expectExactly(3, daemon, engine)

            // Truncated (copytruncate) and rewritten shorter: read again from the start.
            #expect(truncate(path, 0) == 0)
            try Self.append(Self.lines(engine, 1), to: path)
            await SubscribeStreamTests.expectExactly(4, daemon, engine)

            // Rotated: the writer still appends to the old file before switching to a new one.
            #expect(rename(path, path + ".1") == 0)
            try Self.append(Self.lines(engine, 1), to: path + ".1")
            try Self.append(Self.lines(engine, 2), to: path)
            await SubscribeStreamTests.expectExactly(7, daemon, engine)
            #expect((try daemon.metrics()).value("syncmon_source_up", ["source": "log"]) == 1)
            #expect(((try daemon.metrics()).value("syncmon_source_reconnects_total", ["source": "log"]) ?? 0) >= 1)
        }
    }

    @Test("a daemon restart neither loses nor repeats lines, also when the file was rotated meanwhile")
    func restartKeepsOffset() async throws {
        let directory = try TemporaryDirectory(prefix: "smf")
        defer { directory.remove() }
        let engine = uniqueEngine("fr")
        let path = directory.path("events.jsonl")
        try Self.append(Self.lines(engine, 2), to: path)
        let arguments = ["--subscribe", "log=file:\(path)", "--from-start"]

        var daemon = try await DaemonProcess.start(in: directory.path, arguments: arguments)
        await SubscribeStreamTests.expectExactly(2, daemon, engine)
        try Self.append(Self.lines(engine, 1), to: path)
        await SubscribeStreamTests.expectExactly(3, daemon, engine)
        #expect(await daemon.stop() == .exited(0))
        let offset = try String(contentsOfFile: daemon.stateDirectory + "/sources/log.offset", encoding: .utf8)
        #expect(offset.contains("\"offset\":\(Self.line(engine).utf8.count * 3)"), "\(offset)")

        // Written while the daemon is down: read after the restart, and nothing before it again
        // (--from-start only applies to a file without a saved offset).
        try Self.append(Self.lines(engine, 2), to: path)
        daemon = try await DaemonProcess.start(in: directory.path, arguments: arguments)
        // records_fetched_total is persisted state; events_received_total counts this run's lines.
        await SubscribeStreamTests.expectExactly(5, daemon, engine, received: 2)
        #expect(await daemon.stop() == .exited(0))

        // Rotated while the daemon is down: the rest of the old file, then the new one.
        try Self.append(Self.lines(engine, 1), to: path)
        #expect(rename(path, path + ".1") == 0)
        try Self.append(Self.lines(engine, 2), to: path)
        daemon = try await DaemonProcess.start(in: directory.path, arguments: arguments)
        await SubscribeStreamTests.expectExactly(8, daemon, engine, received: 3)
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("--from-start reads a file's existing lines; a file that appears later is read whole")
    func fromStartAndLateFile() async throws {
        let directory = try TemporaryDirectory(prefix: "smf")
        defer { directory.remove() }
        let engine = uniqueEngine("fs")
        let late = uniqueEngine("fz")
        let path = directory.path("events.jsonl")
        let latePath = directory.path("later.jsonl")
        try Self.append(Self.lines(engine, 3), to: path)
        let daemon = try await DaemonProcess.start(
            in: directory.path,
            arguments: ["--subscribe", "file:\(path)", "--subscribe", "file:\(latePath)", "--from-start"]
        )
        do {
            await SubscribeStreamTests.expectExactly(3, daemon, engine)
            #expect((try daemon.metrics()).value("syncmon_source_up", ["source": "file-later.jsonl"]) == 0)
            try Self.append(Self.lines(late, 2), to: latePath)
            let reached = await Polling.until(timeout: .seconds(10)) { SubscribeStreamTests.fetched(daemon, late) == 2 }
            #expect(reached)
            #expect((try daemon.metrics()).value("syncmon_source_up", ["source": "file-later.jsonl"]) == 1)
            #expect(await daemon.stop() == .exited(0))
        } catch {
            await daemon.kill()
            throw error
        }
    }

    /// A daemon following `<dir>/events.jsonl` as source `log`, prepared by `prepare` first.
    func withDaemonAndFile(
        prepare: (String) throws -> Void,
        _ body: (DaemonProcess, String) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory(prefix: "smf")
        defer { directory.remove() }
        let path = directory.path("events.jsonl")
        try prepare(path)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--subscribe", "log=file:\(path)"])
        do {
            // No waiting for the follower: its start position was fixed before READY=1, so lines
            // appended from now on count, and the lines from before do not.
            try await body(daemon, path)
            #expect(await daemon.stop() == .exited(0))
        } catch {
            await daemon.kill()
            throw TestSupportError("\(error)\n--- daemon stderr ---\n\(daemon.standardError)")
        }
    }
}
