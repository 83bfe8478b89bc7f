import Glibc

/// A libsystemd call (or a system call made on its behalf) that failed, with the `errno` it reported.
///
/// libsystemd reports failures as negative `errno` values; this type keeps the positive value and the name of the
/// call, so a log line can say what failed without the caller knowing libsystemd's conventions.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, for example `sd_notify`.
    public let operation: String

    /// The positive `errno` value describing the failure.
    public let errno: Int32

    /// The failure in a person's words with the fix, where the caller knows them better than
    /// the call's name and `strerror` do (the system bus missing: which socket, what must run).
    public let explanation: String?

    /// Creates an error for `operation` failing with the positive `errno` value.
    public init(operation: String, errno: Int32, explanation: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.explanation = explanation
    }

    /// Creates an error from a libsystemd return value, which is a negative `errno` on failure.
    init(operation: String, returnValue: Int32, explanation: String? = nil) {
        self.init(operation: operation, errno: -returnValue, explanation: explanation)
    }

    public var description: String {
        if let explanation = self.explanation { return explanation }
        // strerror's buffer is only borrowed; copy it out at once.
        let reason = strerror(self.errno).map { String(cString: $0) } ?? "errno \(self.errno)"
        return "\(self.operation): \(reason)"
    }
}
