import SyncmonContract
import SyncmonCore
import SyncmonLock

/// A `ServiceClock` that moves only when the test says: services run in process, and a test
/// steps through hours of their life without waiting. Its two readings move together (the
/// monotonic one starts at an arbitrary boot time), so a sleep until a real-time deadline
/// ends when the clock is moved to that deadline.
package final class ManualClock: ServiceClock {
    /// A task asleep on the clock.
    private struct Sleeper {
        let id: Int
        let deadline: MonotonicInstant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What the lock protects.
    private struct State {
        var wall: Timestamp
        var monotonic: MonotonicInstant
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Locked<State>

    package init(now: Timestamp, monotonic: MonotonicInstant = MonotonicInstant(microseconds: 1_000_000_000)) {
        self.state = Locked(State(wall: now, monotonic: monotonic))
    }

    package func wallTime() -> Timestamp {
        self.state.withLock { $0.wall }
    }

    package func monotonicTime() -> MonotonicInstant {
        self.state.withLock { $0.monotonic }
    }

    /// The real-time instants tasks sleep until, earliest first.
    package var sleepingUntil: [Timestamp] {
        self.state.withLock { state in
            state.sleepers.map { state.wall.adding($0.deadline.since(state.monotonic)) }.sorted()
        }
    }

    /// Moves the clock to the real-time `time` (never back), waking every sleeper whose
    /// deadline it reaches.
    package func advance(to time: Timestamp) {
        self.advance(by: max(.zero, time.since(self.wallTime())))
    }

    /// Moves both readings on by `span`, waking every sleeper whose deadline it reaches.
    package func advance(by span: TimeSpan) {
        let woken = self.state.withLock { state -> [Sleeper] in
            state.wall = state.wall.adding(span)
            state.monotonic = state.monotonic.adding(span)
            let now = state.monotonic
            let woken = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return woken
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    package func sleep(until deadline: MonotonicInstant) async throws {
        let id = self.state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = self.state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.monotonic { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = self.state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
