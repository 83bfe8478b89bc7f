import SyncmonCore

/// How a wrapped run ended, as its phase's end reports it.
public struct RunOutcome: Equatable, Sendable {
    /// The code of a failed run: a known code from the tool's table, `exit<N>` for a status
    /// outside it, `signal<NAME>` for a run a signal ended. `nil` when the run succeeded.
    public var code: String?
    /// What happened, for people: the tool's last words when it had any.
    public var message: String

    public init(code: String?, message: String) {
        self.code = code
        self.message = message
    }

    public var succeeded: Bool { self.code == nil }

    /// The class the core gives the code (transient ones read `retrying`, not `error`).
    public var errorClass: ErrorClass? {
        guard let code = self.code, let name = InlineName(code) else { return nil }
        return ErrorCode(name: name).errorClass
    }
}
