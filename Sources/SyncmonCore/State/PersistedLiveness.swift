/// A pair's liveness as a state file holds it (docs/operations.md#persisted-state): push
/// connection ids mean nothing to the next run, so a tie is kept as "tied", and the heartbeat
/// promise is kept beside it under the v1.1 key `heartbeatInterval`.
struct PersistedLiveness: Codable, Equatable {
    /// `up`, `stopped`, `down` or `restored`.
    var state: State
    /// Tied to a push connection of the run that saved it (`up` only).
    var tied: Bool? = nil
    /// When a `restored` pair goes down unless heard from.
    var deadline: Timestamp? = nil

    enum State: String, Codable {
        case up, stopped, down, restored
    }

    init(_ liveness: Liveness) {
        switch liveness {
        case .up(_, let connection):
            self.state = .up
            if connection != nil { self.tied = true }
        case .stopped:
            self.state = .stopped
        case .down:
            self.state = .down
        case .restored(_, let deadline):
            self.state = .restored
            self.deadline = deadline
        }
    }

    /// The liveness as the saving run left it. A tie to its connection becomes a restored
    /// pair whose deadline is the one its heartbeat set, or none: the restart gives it its
    /// grace (`Liveness.restarted(at:savedAt:lastEvent:)`).
    func liveness(heartbeat: TimeSpan?, lastEvent: Timestamp) -> Liveness {
        switch self.state {
        case .up where self.tied == true:
            .restored(heartbeat: heartbeat, deadline: heartbeat.map { lastEvent.adding($0.multiplied(by: 3)) } ?? .distantFuture)
        case .up: .up(heartbeat: heartbeat, connection: nil)
        case .stopped: .stopped
        case .down: .down(heartbeat: heartbeat)
        case .restored: .restored(heartbeat: heartbeat, deadline: self.deadline ?? .distantFuture)
        }
    }

    /// The liveness of a pair saved by v1.1, which kept only the heartbeat promise: the
    /// verdict it last reported says whether it was stopped or down.
    static func fromVersion1_1(heartbeat: TimeSpan?, reported: Summary?) -> Liveness {
        switch reported {
        case .stopped: .stopped
        case .engineDown: .down(heartbeat: heartbeat)
        default: .up(heartbeat: heartbeat, connection: nil)
        }
    }
}
