import SyncmonCore
import Testing

@testable import SyncmonAdapters

/// The line splitter, the /proc I/O signal, Go durations, rclone's rate-limit notice, and the
/// events reports become.
@Suite("wrap's small parts")
struct SmallPartsTests {
    @Test("lines split on \\n, and on \\r where asked; terminators are kept; a last line without one is kept")
    func splitter() {
        var rsync = LineSplitter(splitsOnCarriageReturn: true)
        let lines = rsync.feed(Array("\r  100  1%  1.00kB/s  0:00:01  \r  200".utf8)) + rsync.feed(Array("  2%\nsent\n".utf8))
        #expect(lines.map(\.text) == ["", "  100  1%  1.00kB/s  0:00:01  ", "  200  2%", "sent"])
        #expect(lines.map(\.terminator) == [13, 13, 10, 10])
        #expect(lines[0].isBareCarriageReturn && !lines[2].isBareCarriageReturn)
        #expect(lines.flatMap(\.raw) == Array("\r  100  1%  1.00kB/s  0:00:01  \r  200  2%\nsent\n".utf8))
        var plain = LineSplitter(splitsOnCarriageReturn: false)
        #expect(plain.feed(Array("a\rb\nc".utf8)).map(\.text) == ["a\rb"])
        #expect(plain.finish()?.text == "c")
        #expect(plain.finish() == nil)
        var bounded = LineSplitter(splitsOnCarriageReturn: false, maximumLength: 4)
        #expect(bounded.feed(Array("abcdefghij\n".utf8)).map(\.text) == ["abcd", "efgh", "ij"])
    }

    @Test("I/O counts as progress at 16 KiB/s or more beyond the output wrap carried; keep-alives do not")
    func ioSignal() {
        var signal = IOProgressSignal()
        func t(_ seconds: Double) -> Timestamp { Timestamp(microseconds: Int64(seconds * 1_000_000)) }
        #expect(signal.sample(treeBytes: 1_000_000, carriedBytes: 0, at: t(0)) == nil, "the first sample is the base")
        #expect(signal.sample(treeBytes: 3_000_000, carriedBytes: 0, at: t(1)) == 2_000_000)
        #expect(signal.sample(treeBytes: 3_000_200, carriedBytes: 0, at: t(2)) == nil, "200 B/s of keep-alives")
        #expect(signal.sample(treeBytes: 3_100_200, carriedBytes: 100_000, at: t(3)) == nil, "only the tool's own output, which wrap carried")
        #expect(signal.sample(treeBytes: 3_120_200, carriedBytes: 100_000, at: t(4)) == 20_000)
        #expect(signal.sample(treeBytes: 3_140_200, carriedBytes: 100_000, at: t(6)) == nil, "20 kB over 2 s is under the floor")
        #expect(signal.sample(treeBytes: 1_000, carriedBytes: 100_000, at: t(7)) == nil, "a tree whose processes went away")
    }

    @Test(
        "Go durations",
        arguments: [
            ("552.330144ms", 552_330), ("1.080381816s", 1_080_382), ("1m0s", 60_000_000), ("1h4m0s", 3_840_000_000), ("2.5s", 2_500_000),
            ("750µs", 750), ("100ns", 0), ("0s", 0),
        ])
    func goDurations(_ text: String, _ microseconds: Int64) {
        #expect(GoDuration.parse(text) == TimeSpan(microseconds: microseconds))
    }

    @Test("not Go durations", arguments: ["", "s", "5", "5x", "1m5", "-1s"])
    func notGoDurations(_ text: String) {
        #expect(GoDuration.parse(text) == nil)
    }

    @Test("rclone's retry-after notice is requestRateLimited, throttling for the wait it names")
    func rcloneRateLimit() {
        // The line rclone 1.60 logs at NOTICE (cmd/cmd.go), in its JSON log.
        let line =
            #"{"level":"warning","msg":"Received retry after error - sleeping until 2026-11-24T03:01:00.5Z (1m0.5s)","source":"cmd/cmd.go:277","time":"2026-11-24T03:00:00+00:00"}"#
        var parser = RcloneProgressParser(renderJSONLog: true, hideStats: true)
        let parsed = parser.read(line, from: .standardError)
        #expect(
            parsed.reports == [
                .problem(
                    ToolProblem(
                        .requestRateLimited, message: "Received retry after error - sleeping until 2026-11-24T03:01:00.5Z (1m0.5s)",
                        retryAfter: TimeSpan(microseconds: 60_500_000)))
            ])
        #expect(parsed.display == .replaced("2026/11/24 03:00:00 NOTICE: Received retry after error - sleeping until 2026-11-24T03:01:00.5Z (1m0.5s)"))
        #expect(parser.read("not json", from: .standardError) == ParsedLine())
        #expect(parser.read(#"{"level":"error","msg":"on stdout"}"#, from: .standardOutput) == ParsedLine())
    }

    @Test(
        "rsync records with separators, unit suffixes and per-file progress",
        arguments: [
            ("      1,238,099 100%  146.38kB/s    0:00:08 (xfr#5, to-chk=169/396)", 1_238_099, 5),
            ("      1.238.099  21%  146,38kB/s    0:00:08  ", 1_238_099, nil),
            ("          1.24M  21%    1.01MB/s    0:00:02 (xfr#2, ir-chk=1000/2000)", 1_240_000, 2),
            ("        3000000  59%    1.01MB/s    0:00:02 (xfr#1, to-chk=3/5)", 3_000_000, 1),
            ("              0 100%    0.00kB/s    0:00:00 (xfr#0, to-chk=0/0)", 0, 0),
        ] as [(String, Int64, Int64?)])
    func rsyncRecords(_ line: String, _ bytes: Int64, _ transfers: Int64?) {
        #expect(RsyncProgressParser.record(line) == RsyncProgressParser.Record(bytes: bytes, transfers: transfers))
    }

    /// Found with the FuzzWrap target (docs/fuzzing.md): counters near Int64's bounds, negative
    /// ones and durations of 1e300 trapped on overflow. A corrupt line may say anything; wrap
    /// reads it as zero or saturates, and never stops.
    @Test(
        "absurd counters in a tool's output do not trap",
        arguments: [
            (
                "rclone",
                [
                    #"{"level":"info","msg":"x","stats":{"bytes":-9223372036854775807}}"#,
                    #"{"level":"info","msg":"y","stats":{"bytes":9223372036854775807}}"#,
                    #"{"level":"info","msg":"z","stats":{"deletes":9223372036854775807,"deletedDirs":1,"checks":9223372036854775807,"renames":9223372036854775807}}"#,
                ], ProgressDelta(bytes: 9_223_372_036_854_775_807, checks: 9_223_372_036_854_775_807, deletes: 9_223_372_036_854_775_807)
            ),
            (
                "restic",
                [
                    #"{"message_type":"status","bytes_done":-9223372036854775807}"#,
                    #"{"message_type":"status","bytes_done":9223372036854775807}"#,
                    #"{"message_type":"summary","files_new":9223372036854775807,"files_changed":1,"total_duration":1e300}"#,
                    #"{"message_type":"summary","total_duration":-5}"#,
                ], ProgressDelta(bytes: 9_223_372_036_854_775_807)
            ),
            ("rsync", ["999999999P 1% 1MB/s 0:00:01", "1e999K 1% 1MB/s 0:00:01", "5 1% 1MB/s 0:00:01"], ProgressDelta(bytes: 5)),
        ] as [(String, [String], ProgressDelta)])
    func absurdCounters(tool: String, lines: [String], progress: ProgressDelta) {
        var parser: any ToolOutputParser
        switch tool {
        case "rclone": parser = RcloneProgressParser(renderJSONLog: true, hideStats: false)
        case "restic": parser = ResticProgressParser(renderJSON: true)
        default: parser = RsyncProgressParser(hideProgress: false)
        }
        var total = ProgressDelta()
        for line in lines {
            let stream: ToolOutputStream = tool == "rclone" ? .standardError : .standardOutput
            for case .progress(let delta) in parser.read(line, from: stream).reports { total.add(delta) }
        }
        #expect(total == progress)
        total.add(ProgressDelta(bytes: .max, files: .max))
        #expect(total.bytes == .max && total.files == .max)
    }

    @Test("not rsync records", arguments: ["sending incremental file list", "sent 5,001,499 bytes  received 88 bytes  2,000,634.80 bytes/sec", "a.bin", ""])
    func notRsyncRecords(_ line: String) {
        #expect(RsyncProgressParser.record(line) == nil)
    }

    @Test("reports become the phase's events: sent… for an export, fetched… for an import, error of the phase")
    func payloads() {
        let progress = ToolReport.progress(ProgressDelta(bytes: 10, files: 2, checks: 1, deletes: 1))
        #expect(progress.payload(for: .export) == .sentRecordZoneChanges(savedRecords: 2, deletedRecords: 1, failures: FailureDigest()))
        #expect(progress.payload(for: .import) == .fetchedRecordZoneChanges(modifications: 2, deletions: 1))
        let problem = ToolReport.problem(ToolProblem(.backendRetry, message: "Save(…) returned error, retrying after 1s"))
        #expect(
            problem.payload(for: .export)
                == .error(phase: .export, error: SyncError(code: ErrorCode(.backendRetry), message: "Save(…) returned error, retrying after 1s")))
        #expect(ProgressDelta(bytes: 1).isProgress && !ProgressDelta().isProgress)
    }
}
