import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under `/tmp` for one test, removed by `remove()` (or when the value is
/// released). The path is kept short on purpose: Unix socket paths inside it must stay under
/// the 108-byte `sun_path` limit.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    /// Creates `/tmp/<prefix>-XXXXXXXX`.
    public init(prefix: String = "smt") throws {
        var template = Array("/tmp/\(prefix)-XXXXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else { throw TestSupportError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        self.path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String { self.path + "/" + name }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }

    deinit { self.remove() }
}

/// A helper failed (a socket call, a child that would not start); the message says what.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
