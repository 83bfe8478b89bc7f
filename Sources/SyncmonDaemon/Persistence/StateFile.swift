import FoundationEssentials
import SyncmonContract
import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// The persisted state (docs/operations.md#systemd): every pair's state and its history of
/// health changes (docs/operations.md#history), written atomically (write, fsync, rename,
/// fsync the directory) so that a crash leaves either the old file or the new one, never half.
package struct StateFile: Sendable {
    package let directory: String
    package var path: String { self.directory + "/state.json" }

    package init(directory: String) {
        self.directory = directory
    }

    /// The on-disk document; `version` lets later releases migrate. v1.2 added each pair's
    /// `liveness` without changing the version: v1.1 files load (their pairs' liveness comes
    /// from the verdict they last reported), and v1.1 daemons ignore the new key. v1.3 added
    /// each pair's `history` the same way: absent (no change kept), a file loads with none.
    struct Document: Codable {
        var version: Int
        var savedAt: Timestamp
        var pairs: [Entry]

        struct Entry: Codable {
            var engine: InlineName
            var database: Database
            var state: PairState
            /// The pair's health changes, oldest first; left out when there are none.
            var history: PairHistory?
        }
    }

    /// What loading found.
    package enum LoadResult {
        case missing
        /// The pairs, their histories (pairs without one have none), and when the daemon that
        /// wrote them saved them: liveness is judged at that moment (`Monitor.restore(_:_:history:savedAt:start:)`).
        case loaded([PairKey: PairState], histories: [PairKey: PairHistory], savedAt: Timestamp)
        /// The file was unreadable and has been moved to `setAsidePath`.
        case corrupt(setAsidePath: String, reason: String)
    }

    /// Loads the state; a file that cannot be decoded is renamed out of the way so the daemon
    /// still starts (and the evidence is kept).
    package func load(now: Timestamp) -> LoadResult {
        guard let data = FileManager.default.contents(atPath: self.path) else { return .missing }
        do {
            let document = try JSONDecoder().decode(Document.self, from: data)
            guard document.version == 1 else { throw DaemonError.system("unsupported state version \(document.version)") }
            var pairs: [PairKey: PairState] = [:]
            var histories: [PairKey: PairHistory] = [:]
            for entry in document.pairs {
                let key = PairKey(engine: entry.engine, database: entry.database)
                pairs[key] = entry.state
                histories[key] = entry.history
            }
            return .loaded(pairs, histories: histories, savedAt: document.savedAt)
        } catch {
            let aside = self.path + ".corrupt-\(now.microseconds / 1_000_000)"
            rename(self.path, aside)
            return .corrupt(setAsidePath: aside, reason: "\(error)")
        }
    }

    /// Writes `monitor`'s pairs, each with its history as of `now`, atomically; returns the
    /// file's size in bytes.
    ///
    /// The document is written a pair at a time, each pair encoded on its own and the pieces
    /// streamed to the file: encoded whole, `JSONEncoder` built the document as values first,
    /// and at 10,000 pairs the daemon's RSS rose from 48 to 177 MiB for every save (each
    /// second while events came). Each pair is encoded by ``StreamingJSONEncoder``, straight
    /// into bytes: `JSONEncoder` took about a second of CPU for 10,000 pairs, every save. It is
    /// the same document: the same keys and values (`JSONEncoder` never fixed the order of an
    /// object's keys).
    @discardableResult
    package func save(_ monitor: Monitor, now: Timestamp) throws -> Int {
        let encoder = StreamingJSONEncoder()
        let pairs = monitor.pairs
        let order = PairOrder.sorted(pairs)
        var size = 0
        try AtomicFile.write(to: self.path) { output in
            output.append(#"{"version":1,"savedAt":"#)
            try encoder.withEncoded(now) { output.append($0) }
            output.append(#","pairs":["#)
            for (position, index) in order.enumerated() {
                if position > 0 { output.append(",") }
                let key = pairs.keys[index]
                let history = pairs.histories[index].trimmed(at: now)
                let entry = Document.Entry(
                    engine: key.engine, database: key.database, state: pairs.values[index], history: history.isEmpty ? nil : history)
                try encoder.withEncoded(entry) { output.append($0) }
            }
            output.append("]}")
            size = output.count
        }
        return size
    }
}
