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

    /// Creates an error for `operation` failing with the positive `errno` value.
    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// Creates an error from a libsystemd return value, which is a negative `errno` on failure.
    init(operation: String, returnValue: Int32) {
        self.init(operation: operation, errno: -returnValue)
    }

    public var description: String {
        // strerror's buffer is only borrowed; copy it out at once.
        let reason = strerror(self.errno).map { String(cString: $0) } ?? "errno \(self.errno)"
        return "\(self.operation): \(reason)"
    }
}
