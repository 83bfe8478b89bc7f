import SyncmonCore
import SyncmonDaemon
import SyncmonLock

/// A `ServiceClock` that moves only when the test says: services run in process, and a test
/// steps through hours of their life without waiting.
final class ManualClock: ServiceClock {
    /// A task asleep on the clock.
    private struct Sleeper {
        let id: Int
        let deadline: Timestamp
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What the lock protects.
    private struct State {
        var now: Timestamp
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state: Locked<State>

    init(now: Timestamp) {
        self.state = Locked(State(now: now))
    }

    func now() -> Timestamp {
        self.state.withLock { $0.now }
    }

    /// The deadlines tasks sleep until, earliest first.
    var sleepingUntil: [Timestamp] {
        self.state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    /// Moves the clock to `time`, waking every sleeper whose deadline it reaches.
    func advance(to time: Timestamp) {
        let woken = self.state.withLock { state -> [Sleeper] in
            state.now = max(state.now, time)
            let now = state.now
            let woken = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return woken
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    func sleep(until deadline: Timestamp) async throws {
        let id = self.state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = self.state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
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
