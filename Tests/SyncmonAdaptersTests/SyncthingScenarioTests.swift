import SyncmonAdapters
import SyncmonCore
import Testing

/// The verdicts docs/syncthing.md promises, on Syncthing JSON recorded from two real 1.19.2
/// instances A and B sharing folder `shared` (engines `a` and `b`), played through the adapter
/// into the core at the recorded times. Each check names the moment from the scenario's
/// `actions.log` it follows.
@Suite("Syncthing adapter: recorded scenarios")
struct SyncthingScenarioTests {
    /// What one pair must show at one moment.
    struct Expect: Sendable, CustomStringConvertible {
        var engine: String
        var summary: Summary
        /// The code of the outstanding failure, when the summary is `error` or `retrying`.
        var code: String? = nil
        var stalls: [StallReason] = []

        var description: String {
            "\(self.engine)/shared \(self.summary)" + (self.code.map { " (\($0))" } ?? "") + (self.stalls.isEmpty ? "" : " stalls \(self.stalls)")
        }
    }

    /// The expectations at one recorded moment.
    struct Check: Sendable {
        var time: String
        var why: String
        var expects: [Expect]
    }

    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var checks: [Check]
        var description: String { self.name }
    }

    static func ok(_ engine: String) -> Expect { Expect(engine: engine, summary: .succeeded) }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "a-healthy",
            checks: [
                Check(time: "02:07:50.500", why: "the start snapshots: both folders idle, nothing needed", expects: [ok("a"), ok("b")]),
                Check(
                    time: "02:07:51.765", why: "A scanned a1.txt, B pulls it",
                    expects: [
                        Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .inProgress),
                    ]),
                Check(time: "02:08:10.300", why: "files added, changed and deleted on either side", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "a2-progress",
            checks: [
                Check(
                    time: "02:08:18.000", why: "B pulls 8 MiB at 1000 KiB/s",
                    expects: [Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .inProgress)]),
                Check(time: "02:08:26.300", why: "big.bin arrived", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "b-stop-B-20s",
            checks: [
                Check(time: "02:08:28.500", why: "before", expects: [ok("a"), ok("b")]),
                Check(
                    time: "02:08:29.300", why: "B stopped: its API refuses",
                    expects: [
                        Expect(engine: "a", summary: .noNetwork), Expect(engine: "b", summary: .engineDown),
                    ]),
                Check(
                    time: "02:08:48.700", why: "20 s later, a file written on A meanwhile",
                    expects: [
                        Expect(engine: "a", summary: .noNetwork), Expect(engine: "b", summary: .engineDown),
                    ]),
                Check(time: "02:08:55.883", why: "5 s after B's API is back", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "b3-hang-B-sigstop",
            checks: [
                Check(
                    time: "02:20:25.000", why: "B hung (SIGSTOP); A wrote a file, B does not take it",
                    expects: [
                        Expect(engine: "a", summary: .inProgress), ok("b"),
                    ]),
                Check(time: "02:20:57.700", why: "B's poll has gone unanswered for nearly its timeout + 10 s", expects: [ok("b")]),
                Check(
                    time: "02:20:57.800", why: "B's poll has gone unanswered for its timeout + 10 s",
                    expects: [
                        Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .engineDown),
                    ]),
                Check(time: "02:21:08.900", why: "SIGCONT: B answers again and takes the file", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "c-pause-device-patch",
            checks: [
                Check(time: "02:09:16.460", why: "before", expects: [ok("a"), ok("b")]),
                Check(
                    time: "02:09:20.880", why: "A paused device B",
                    expects: [
                        Expect(engine: "a", summary: .stopped), Expect(engine: "b", summary: .noNetwork),
                    ]),
                Check(
                    time: "02:09:28.880", why: "a file written on A while paused",
                    expects: [
                        Expect(engine: "a", summary: .stopped), Expect(engine: "b", summary: .noNetwork),
                    ]),
                Check(time: "02:09:34.419", why: "resumed, reconnected, the file pulled", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "c3-pause-folder",
            checks: [
                Check(time: "02:09:54.530", why: "before", expects: [ok("a"), ok("b")]),
                Check(time: "02:10:00.800", why: "A paused the folder", expects: [Expect(engine: "a", summary: .stopped), ok("b")]),
                Check(time: "02:10:09.235", why: "resumed", expects: [ok("a"), ok("b")]),
                // Past not_syncing's 60 s: the resumed folder's import was said again.
                Check(time: "02:11:09.235", why: "a minute after the resume", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "d-marker-removed",
            checks: [
                Check(time: "02:10:26.000", why: "marker removed, not yet scanned: Syncthing has not noticed", expects: [ok("a"), ok("b")]),
                Check(
                    time: "02:10:26.300", why: "the scan found the marker missing",
                    expects: [
                        ok("a"), Expect(engine: "b", summary: .error, code: "folderError"),
                    ]),
                Check(
                    time: "02:10:47.900", why: "d1.txt written on A while B is in error; marker back, not rescanned",
                    expects: [
                        Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .error, code: "folderError"),
                    ]),
                Check(time: "02:10:52.327", why: "rescanned: B pulled d1.txt", expects: [ok("a"), ok("b")]),
                Check(time: "02:11:52.327", why: "a minute later: no not_syncing after the new setup", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "d3-marker-removed-rescan-timer",
            checks: [
                Check(
                    time: "02:11:31.600", why: "the periodic rescan found the marker missing",
                    expects: [
                        ok("a"), Expect(engine: "b", summary: .error, code: "folderError"),
                    ]),
                Check(time: "02:11:39.600", why: "the next rescan found it back: no pull, no summary", expects: [ok("a"), ok("b")]),
                Check(time: "02:12:42.907", why: "a minute later: no not_syncing after the new setup", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "e-pull-blocked-chattr",
            checks: [
                Check(
                    time: "02:11:51.554", why: "locked/ made immutable on B; A wrote three files, B pulls",
                    expects: [Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .inProgress)]),
                Check(
                    time: "02:11:51.600", why: "the first pull failed on locked/new.txt",
                    expects: [
                        Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .error, code: "pullFailed"),
                    ]),
                Check(time: "02:12:51.561", why: "inside Syncthing's first retry", expects: [Expect(engine: "b", summary: .error, code: "pullFailed")]),
                Check(time: "02:13:51.569", why: "inside the second retry", expects: [Expect(engine: "b", summary: .error, code: "pullFailed")]),
                Check(
                    time: "02:14:20.700", why: "obstacle removed, rescanned, no pull yet",
                    expects: [
                        Expect(engine: "a", summary: .inProgress), Expect(engine: "b", summary: .error, code: "pullFailed"),
                    ]),
                Check(time: "02:14:34.161", why: "a pull completed", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "e2-pull-blocked-tempdir",
            checks: [
                Check(
                    time: "02:14:40.400", why: "a directory sits where the temp file goes",
                    expects: [
                        Expect(engine: "b", summary: .error, code: "pullFailed")
                    ]),
                Check(time: "02:14:46.100", why: "removed; the next pull completed", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "e3-recover-by-folder-restart",
            checks: [
                Check(
                    time: "02:15:28.200", why: "the pull failed on a directory at the temp path",
                    expects: [
                        Expect(engine: "b", summary: .error, code: "pullFailed")
                    ]),
                Check(
                    time: "02:15:34.000", why: "obstacle removed and rescanned: a scan retries no pull",
                    expects: [
                        Expect(engine: "b", summary: .error, code: "pullFailed")
                    ]),
                Check(time: "02:15:35.000", why: "B's folder paused", expects: [Expect(engine: "b", summary: .stopped, code: "pullFailed")]),
                Check(time: "02:15:38.824", why: "resumed: the restarted folder pulled", expects: [ok("a"), ok("b")]),
            ]),
        Scenario(
            name: "e4-short-puller-pause",
            checks: [
                Check(
                    time: "02:21:50.300", why: "the pull failed (retries every 5 s, then 10 s)",
                    expects: [
                        Expect(engine: "b", summary: .error, code: "pullFailed")
                    ]),
                Check(time: "02:21:55.300", why: "after the first retry", expects: [Expect(engine: "b", summary: .error, code: "pullFailed")]),
                Check(time: "02:22:00.300", why: "after the second", expects: [Expect(engine: "b", summary: .error, code: "pullFailed")]),
                Check(time: "02:22:10.300", why: "after the third", expects: [Expect(engine: "b", summary: .error, code: "pullFailed")]),
                Check(time: "02:22:20.000", why: "obstacle removed, no retry yet", expects: [Expect(engine: "b", summary: .error, code: "pullFailed")]),
                Check(time: "02:22:34.034", why: "the next retry completed", expects: [ok("a"), ok("b")]),
            ]),
    ]

    @Test("verdicts at the recorded moments", arguments: Self.scenarios)
    func verdicts(_ scenario: Scenario) throws {
        var playback = SyncthingPlayback(try SyncthingRecording(scenario.name))
        for check in scenario.checks {
            let time = recorded(check.time)
            try playback.play(through: time)
            for expect in check.expects {
                let evaluation = playback.evaluation(expect.engine, at: time)
                #expect(evaluation?.summary == expect.summary, "\(check.time) \(check.why): \(expect)")
                #expect(Array(evaluation?.stalls ?? StallSet()) == expect.stalls, "\(check.time) \(check.why): \(expect)")
                let failing = playback.pair(expect.engine)?.outstandingFailure
                #expect(failing?.error.code.description == expect.code, "\(check.time) \(check.why): \(expect)")
            }
        }
        try playback.playAll()
    }
}

/// What the adapter tells the source besides events on the same recordings: the notices it logs
/// (Syncthing's own words, which events cannot carry) and the snapshots it asks for.
@Suite("Syncthing adapter: recorded notices and snapshots")
struct SyncthingRecordedNoticeTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var notices: [String: [SyncthingNotice]]
        /// Snapshots beyond each scenario's two start snapshots, as "engine name".
        var extraSnapshots: [String]
        var description: String { self.name }
    }

    static let shared = Database("shared")!
    static let markerMissing = "folder marker missing (this indicates potential data loss, search docs/forum to get information about how to proceed)"

    static let cases: [Case] = [
        Case(name: "a-healthy", notices: [:], extraSnapshots: []),
        Case(name: "a2-progress", notices: [:], extraSnapshots: []),
        // A restart: the snapshot reads the new start time and the latest event id again.
        Case(name: "b-stop-B-20s", notices: ["B": [.restarted(startTime: "2026-11-24T02:08:48Z")]], extraSnapshots: ["B after"]),
        // A hang is no restart: the snapshot after the timed-out poll keeps `since`.
        Case(name: "b3-hang-B-sigstop", notices: [:], extraSnapshots: ["B after"]),
        Case(name: "c-pause-device-patch", notices: [:], extraSnapshots: []),
        // A resumed folder restarts in Syncthing: read again.
        Case(name: "c3-pause-folder", notices: [:], extraSnapshots: ["A resumed"]),
        Case(
            name: "d-marker-removed",
            notices: [
                "B": [
                    .folderFailed(folder: shared, message: markerMissing), .folderRecovered(folder: shared),
                ]
            ], extraSnapshots: ["B after-fix"]),
        Case(
            name: "d3-marker-removed-rescan-timer",
            notices: [
                "B": [
                    .folderFailed(folder: shared, message: markerMissing), .folderRecovered(folder: shared),
                ]
            ], extraSnapshots: ["B after"]),
        // Three failed pulls with the same item and error: logged once.
        Case(
            name: "e-pull-blocked-chattr",
            notices: [
                "B": [
                    .pullFailed(
                        folder: shared, count: 1, path: "locked/new.txt",
                        message: "opening temp file: open /work/syncthing-lab/run/B/shared/locked/.syncthing.new.txt.tmp: operation not permitted")
                ]
            ], extraSnapshots: []),
        Case(
            name: "e2-pull-blocked-tempdir",
            notices: [
                "B": [
                    .pullFailed(
                        folder: shared, count: 1, path: "blocked.txt",
                        message: "opening temp file: open /work/syncthing-lab/run/B/shared/.syncthing.blocked.txt.tmp: file exists")
                ]
            ], extraSnapshots: []),
        // Pausing and resuming the folder restarts it in Syncthing: read again.
        Case(
            name: "e3-recover-by-folder-restart",
            notices: [
                "B": [
                    .pullFailed(
                        folder: shared, count: 1, path: "blocked3.txt",
                        message: "opening temp file: open /work/syncthing-lab/run/B/shared/.syncthing.blocked3.txt.tmp: file exists")
                ]
            ], extraSnapshots: ["B recovered"]),
        // Four failed pulls, one notice.
        Case(
            name: "e4-short-puller-pause",
            notices: [
                "B": [
                    .pullFailed(
                        folder: shared, count: 1, path: "blocked4.txt",
                        message: "opening temp file: open /work/syncthing-lab/run/B/shared/.syncthing.blocked4.txt.tmp: file exists")
                ]
            ], extraSnapshots: []),
    ]

    @Test("notices and snapshots", arguments: Self.cases)
    func noticesAndSnapshots(_ expected: Case) throws {
        var playback = SyncthingPlayback(try SyncthingRecording(expected.name))
        try playback.playAll()
        for engine in ["A", "B"] {
            #expect(playback.notices[engine] == expected.notices[engine] ?? [], "\(engine)")
        }
        #expect(playback.snapshotsTaken == ["A start", "B start"] + expected.extraSnapshots)
    }

    @Test("since ends at the last event answered, with no snapshot left pending", arguments: Self.cases.map(\.name))
    func sinceFollowsTheRecording(_ name: String) throws {
        var playback = SyncthingPlayback(try SyncthingRecording(name))
        try playback.playAll()
        for engine in ["A", "B"] {
            let last = playback.recording.steps.compactMap { step -> Int? in
                guard step.engine == engine, case .answer(let ids?) = step.kind else { return nil }
                return ids.upperBound
            }.last
            if let last { #expect(playback.adapters[engine]!.since == last, "\(engine)") }
            #expect(!playback.adapters[engine]!.needsSnapshot, "\(engine)")
        }
    }
}
