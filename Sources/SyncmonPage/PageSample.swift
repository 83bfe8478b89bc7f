import SyncmonCore

/// A made-up fleet for measuring the page (the benchmark, docs/performance.md) and for the
/// tests' size bound: `count` pairs, most healthy, one in ten failing with a message of the
/// length engines send, one in twenty stalled, one in ten with a canary; a day's history each,
/// most with no change in it, one in ten flapping.
public enum PageSample {
    public static func model(pairs count: Int, now: Timestamp, host: String = "host") -> PageModel {
        let databases: [Database] = [.private, .shared, Database("public")!]
        let pairs = (0..<count).map { index -> PagePair in
            let key = PairKey(engine: EngineName.parse("engine-\(index / 3)")!, database: databases[index % 3])
            let ago = { (minutes: Int64) in now.adding(.seconds(-minutes * 60)) }
            let failing = index % 10 == 3
            let summary: Summary = failing ? .error : index % 20 == 7 ? .stalled : index % 10 == 5 ? .inProgress : .succeeded
            let error = PhaseError(
                code: ErrorCode(.quotaExceeded), errorClass: .actionable,
                message: "rsync: write failed on \"/srv/backup/photos/2026\": No space left on device (28)")
            var row = StatusRow(
                key: key, summary: summary, stalls: summary == .stalled ? StallSet([.noProgress]) : StallSet(),
                account: .available, network: .available,
                phases: (
                    setup: .succeeded(started: ago(3000), ended: ago(2999)),
                    import: .succeeded(started: ago(4), ended: ago(3)),
                    export: failing ? .failed(started: ago(2), ended: ago(1), error: error) : .succeeded(started: ago(2), ended: ago(1))
                ),
                failing: (nil, nil, failing ? OutstandingFailure(since: ago(50), error: error) : nil),
                throttledUntil: nil, pending: (0, 0), lastEvent: ago(1), up: true)
            if index % 10 == 0 {
                let peer = CanaryStatus.Peer(host: CanaryHost("peer-b")!, seq: 41, lastMoved: ago(2), roundTripSeconds: 4.2, late: nil)
                row.canary = CanaryStatus(host: CanaryHost("host-a")!, seq: 42, peers: [peer], lateAfter: .seconds(Int64(600)))
            }
            // A day as fleets have them: most pairs fine all day, some with a retry, one in ten
            // flapping (four changes), the failing and stalled ones since a while ago.
            var changes = [HealthChange(time: ago(3000), from: nil, to: .succeeded)]
            if index % 10 == 8 {
                changes.append(HealthChange(time: ago(700), from: .succeeded, to: .retrying, phase: .export, code: "networkFailure"))
                changes.append(HealthChange(time: ago(690), from: .retrying, to: .succeeded))
            }
            if index % 10 == 9 {
                changes.append(HealthChange(time: ago(600), from: .succeeded, to: .retrying, phase: .export, code: "networkFailure"))
                changes.append(HealthChange(time: ago(400), from: .retrying, to: .succeeded))
                changes.append(HealthChange(time: ago(300), from: .succeeded, to: .noNetwork))
                changes.append(HealthChange(time: ago(200), from: .noNetwork, to: .succeeded))
            }
            if failing {
                changes.append(HealthChange(time: ago(50), from: .succeeded, to: .error, phase: .export, code: "quotaExceeded", message: error.message))
            } else if summary == .stalled {
                changes.append(HealthChange(time: ago(30), from: .succeeded, to: .stalled, reason: "no_progress"))
            }
            return PagePair(row: row, lastImport: ago(3), lastExport: failing ? ago(900) : ago(1), changes: changes)
        }
        return PageModel(host: host, now: now, pairs: pairs)
    }

    /// The page's size limit for `pairs` pairs before gzip (docs/page.md): 64 KiB and 400 bytes a pair.
    public static func sizeLimit(pairs: Int) -> Int {
        64 * 1024 + 400 * pairs
    }
}
