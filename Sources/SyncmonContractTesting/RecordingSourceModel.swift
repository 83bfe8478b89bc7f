import SyncmonContract
import SyncmonCore
import SyncmonLock

/// A `SourceStateModel` that records what a source tells it, for a source's tests without a
/// daemon: the lines and events its ingests were handed, and every other call, in order.
package final class RecordingSourceModel: SourceStateModel {
    /// One call a source made, as the test reads it back.
    package enum Call: Equatable, Sendable {
        case connectionClosed(UInt64)
        case sourceLost(String, connection: UInt64)
        case setUnknown(String, because: String?)
        case canary(String, CanaryStatus)
    }

    /// What the lock protects.
    private struct State {
        var calls: [Call] = []
        var lines: [String] = []
        var events: [Event] = []
        var suppressed: Set<PairKey> = []
    }

    private let state = Locked(State())

    package init() {}

    /// The calls so far, oldest first.
    package var calls: [Call] { self.state.withLock { $0.calls } }
    /// The whole lines fed to the ingests so far (documents included), oldest first.
    package var lines: [String] { self.state.withLock { $0.lines } }
    /// The events adapters handed to the ingests so far, oldest first.
    package var events: [Event] { self.state.withLock { $0.events } }

    /// Makes `key` suppressed (or not) from now on.
    package func setSuppressed(_ key: PairKey, _ suppressed: Bool) {
        self.state.withLock { state in
            if suppressed { state.suppressed.insert(key) } else { state.suppressed.remove(key) }
        }
    }

    package func makeIngest(clock: any ServiceClock, connection: UInt64?, maximumLineLength: Int, highestSequence: Int64?) -> any SourceIngest {
        RecordingIngest(model: self, clock: clock, highestSequence: highestSequence)
    }

    package func connectionClosed(_ connection: UInt64, now: Timestamp) {
        self.record(.connectionClosed(connection))
    }

    package func sourceLost(_ engine: InlineName, connection: UInt64, now: Timestamp) {
        self.record(.sourceLost("\(engine)", connection: connection))
    }

    package func setUnknown(_ key: PairKey, because reason: String?, now: Timestamp) {
        self.record(.setUnknown("\(key)", because: reason))
    }

    package func canary(_ key: PairKey, _ status: CanaryStatus, cycles: [(phase: Phase, at: Timestamp)], now: Timestamp) {
        self.record(.canary("\(key)", status))
    }

    package func isSuppressed(_ key: PairKey, at time: Timestamp) -> Bool {
        self.state.withLock { $0.suppressed.contains(key) }
    }

    private func record(_ call: Call) {
        self.state.withLock { $0.calls.append(call) }
    }

    fileprivate func received(lines: [String], events: [Event]) {
        self.state.withLock {
            $0.lines += lines
            $0.events += events
        }
    }
}

/// The ingest `RecordingSourceModel` hands out: frames lines at `\n` and keeps them whole.
private final class RecordingIngest: SourceIngest {
    let model: RecordingSourceModel
    let clock: any ServiceClock
    private(set) var highestSequence: Int64?
    private var partial: [UInt8] = []
    private var pending: [String] = []
    private var delivered = 0

    init(model: RecordingSourceModel, clock: any ServiceClock, highestSequence: Int64?) {
        self.model = model
        self.clock = clock
        self.highestSequence = highestSequence
    }

    func feed(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                self.pending.append(String(decoding: self.partial, as: UTF8.self))
                self.partial.removeAll()
            } else {
                self.partial.append(byte)
            }
        }
        self.flush(asOneState: false)
    }

    func finish() {
        if !self.partial.isEmpty { self.pending.append(String(decoding: self.partial, as: UTF8.self)) }
        self.partial.removeAll()
        self.flush(asOneState: false)
    }

    func discardPartialLine() {
        self.partial.removeAll()
    }

    func add(document: [UInt8]) {
        self.pending.append(String(decoding: document, as: UTF8.self))
    }

    func addTooLarge() {
        self.pending.append("<too large>")
    }

    func apply(_ events: [Event], asOneState: Bool) {
        self.delivered += events.count
        self.model.received(lines: [], events: events)
    }

    func flush(asOneState: Bool) {
        let lines = self.pending.filter { !$0.isEmpty }
        self.pending.removeAll()
        self.delivered += lines.count
        if !lines.isEmpty { self.model.received(lines: lines, events: []) }
    }

    func takeDelivered() -> Int {
        defer { self.delivered = 0 }
        return self.delivered
    }
}
