import SyncmonHost

/// A system call that failed, with the errno read right where it failed (never later, when
/// another call may have replaced it): "pipe: too many open files".
package struct SystemCallError: Error, Equatable, CustomStringConvertible {
    /// The call, as the message names it.
    package var operation: String
    package var code: Int32

    package init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    package var description: String { "\(self.operation): \(SystemErrorText.words(self.code))" }
}
