import Synchronization
import SyncmonCore
import SyncmonHost
import SyncmonLock

/// A second core for one busy push connection: while the connection's event loop decodes the
/// first half of a large read, the helper's thread decodes the whole lines of the second half.
///
/// One per process; its thread starts at the first large read and sleeps between offers. An
/// offer nobody has started on is never waited for: while the helper is busy with another
/// connection's read it refuses the offer, and when it has not picked an offer up by the time
/// the loop is done with its own half, the loop takes it back and decodes it itself. So a
/// connection never waits on another one, and where no core is spare the help costs two lock
/// round trips a read. The events are applied on the loop, in the order of the lines, as
/// without the helper (``EventIngest/feed(_:)``).
final class DecodeHelper: Sendable {
    static let shared = DecodeHelper()

    /// The smallest read that is split (about 160 benchmark lines). Waking the helper's
    /// thread costs a system call and the time until it is scheduled, which a few lines would
    /// not repay: a smaller read is decoded on the loop alone, as an engine's few lines at a
    /// time always are.
    static let minimumSplitRead = 32 * 1024

    /// Lines offered to the helper, and the batch they are decoded into.
    struct Job: @unchecked Sendable {
        /// Whole lines, each ending in `\n`; the bytes stay valid until ``collect()`` returns.
        let lines: UnsafeRawBufferPointer
        let batch: SplitBatch
    }

    /// Where the one offer stands.
    private enum Stage {
        case idle
        case offered(Job)
        /// The helper is decoding the offered lines.
        case taken
        /// The helper has decoded them; the offerer has not collected them yet.
        case done
    }

    private let stage = Rendezvous(Stage.idle)
    private let started = Atomic<Bool>(false)

    /// Offers `lines` to be decoded into `batch`; `false` when the helper is busy with another
    /// connection's read. After `true`, call ``collect()`` before touching `batch` or the bytes.
    func offer(_ lines: UnsafeRawBufferPointer, into batch: SplitBatch) -> Bool {
        self.startOnce()
        return self.stage.update { stage in
            guard case .idle = stage else { return false }
            stage = .offered(Job(lines: lines, batch: batch))
            return true
        }
    }

    /// Ends an accepted offer: `true` when the helper decoded the lines (waiting for it while
    /// it is on them), `false` when it had not started and the offer is taken back, for the
    /// caller to decode the lines itself. Without `takingBack` (tests) it waits for the helper
    /// to decode them.
    func collect(takingBack: Bool = true) -> Bool {
        let ready: (Stage) -> Bool = {
            switch $0 {
            case .done, .idle: true
            case .offered: takingBack
            case .taken: false
            }
        }
        // Back to idle wakes nobody: only the helper waits, and only for an offer.
        return self.stage.wait(until: ready, waking: false) { stage in
            defer { stage = .idle }
            if case .done = stage { return true }
            return false
        }
    }

    /// Starts the helper's thread at the first offer. If no thread can be had, offers stay
    /// unanswered and each one is taken back: the loop decodes everything, as it would alone.
    private func startOnce() {
        guard !self.started.load(ordering: .relaxed), self.started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        _ = DedicatedThread.spawn(named: "syncmon-decode") { self.run() }
    }

    /// The helper's thread: takes each offer, decodes it, says it is done.
    private func run() {
        let isOffered: (Stage) -> Bool = { if case .offered = $0 { true } else { false } }
        while true {
            // Taking an offer wakes nobody: its offerer waits only for it to be done.
            let job: Job? = self.stage.wait(until: isOffered, waking: false) { stage in
                guard case .offered(let job) = stage else { return nil }
                stage = .taken
                return job
            }
            guard let job else { continue }
            job.batch.decode(job.lines)
            self.stage.update { $0 = .done }
        }
    }
}

/// The part of a push connection's reads that ``DecodeHelper`` decodes: a batch of its own,
/// kept by the connection between reads like its main batch.
///
/// Unchecked: the connection's loop and the helper's thread take turns on it, handed over
/// under ``DecodeHelper``'s lock, never at once.
final class SplitBatch: @unchecked Sendable {
    var batch: IngestBatch

    init(maximumLineLength: Int) {
        self.batch = IngestBatch(maximumLineLength: maximumLineLength)
    }

    /// Decodes whole lines, each ending in `\n`, into the batch.
    func decode(_ lines: UnsafeRawBufferPointer) {
        self.batch.addWholeLines(lines)
    }
}

/// A large read cut for two decoders, at line ends: `head` ends with the first `\n` from the
/// middle on, `middle` holds the whole lines after it up to the read's last `\n`, and `tail`
/// is what follows, the start of a line the next read completes.
///
/// Cut in half: the loop decodes and applies its half while the helper decodes the other,
/// then applies that. Of cuts at two fifths, a half and three fifths, a half took in the
/// most lines a second (docs/performance.md).
struct ReadParts {
    let head: UnsafeRawBufferPointer
    let middle: UnsafeRawBufferPointer
    let tail: UnsafeRawBufferPointer

    /// `nil` when there is no line end after the middle to cut at.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let cut = LineFramer.lineEnd(in: bytes, from: bytes.count / 2) else { return nil }
        var last = bytes.count - 1
        while bytes[last] != 0x0A { last -= 1 }
        guard cut < last else { return nil }
        self.head = UnsafeRawBufferPointer(rebasing: bytes[...cut])
        self.middle = UnsafeRawBufferPointer(rebasing: bytes[(cut + 1)...last])
        self.tail = UnsafeRawBufferPointer(rebasing: bytes[(last + 1)...])
    }
}
