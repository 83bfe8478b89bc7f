import SyncmonCore

/// Mixed CKSyncEngine traffic for the benchmarks: engines cycling through fetch and send
/// flows on two databases, lines of about 200 bytes, with an occasional conflict failure.
struct SyntheticTraffic {
    var engines = 200
    /// The number of the first engine (`engine-NNN`), to give connections disjoint engines.
    var firstEngine = 0
    var start = Timestamp(seconds: 1_795_000_000)
    /// Event time between consecutive lines.
    var spacing = TimeSpan(microseconds: 1000)

    /// `count` lines, each ending in `\n`, as one buffer.
    func lines(count: Int) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(count * 210)
        var sequence = [Int](repeating: 0, count: self.engines * 2)
        for index in 0..<count {
            let pair = index % (self.engines * 2)
            let step = sequence[pair]
            sequence[pair] += 1
            let engine = "engine-" + String(self.firstEngine + pair / 2).leftPadded(to: 3)
            let database = pair % 2 == 0 ? "private" : "shared"
            let time = RFC3339.format(self.start.adding(TimeSpan(microseconds: Int64(index) * self.spacing.microseconds)))
            var line = #"{"v":1,"engine":"\#(engine)","database":"\#(database)","time":"\#(time)","seq":\#(step),"#
            line += Self.body(step: step)
            line += "}\n"
            output.append(contentsOf: line.utf8)
        }
        return output
    }

    /// The payload of step `step` of an engine's endless fetch/send loop.
    private static func body(step: Int) -> String {
        switch step % 12 {
        case 0: return #""type":"willFetchChanges","reason":"scheduled""#
        case 1: return #""type":"fetchedDatabaseChanges","modifications":2,"deletions":0"#
        case 2: return #""type":"willFetchRecordZoneChanges","zone":"Notes""#
        case 3: return #""type":"fetchedRecordZoneChanges","zone":"Notes","modifications":17,"deletions":1"#
        case 4: return #""type":"didFetchRecordZoneChanges","zone":"Notes""#
        case 5: return #""type":"didFetchChanges","reason":"scheduled""#
        case 6: return #""type":"willSendChanges","reason":"scheduled""#
        case 7:
            let failures =
                step % 48 == 7
                ? #"[{"code":"serverRecordChanged","zone":"Notes","recordName":"note-1"}]"# : "[]"
            return #""type":"sentRecordZoneChanges","savedRecords":5,"deletedRecords":1,"failedRecordSaves":\#(failures),"failedRecordDeletes":[]"#
        case 8: return #""type":"didSendChanges","reason":"scheduled""#
        case 9: return #""type":"stateUpdate","pendingRecordZoneChanges":0,"pendingDatabaseChanges":0"#
        case 10: return #""type":"heartbeat","note":"unknown keys are skipped but still validated""#
        default: return #""type":"networkStatus","available":true"#
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - self.count)) + self
    }
}
