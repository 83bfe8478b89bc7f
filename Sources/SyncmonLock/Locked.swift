import CThreadSanitizer
import Synchronization

/// A value only reached under a lock: the one lock type of syncmon's modules.
///
/// A `Mutex` inside, plus what ThreadSanitizer needs to see it. On Linux a contended `Mutex`
/// is handed from thread to thread by the kernel (`FUTEX_LOCK_PI` / `FUTEX_UNLOCK_PI`, in slow
/// paths of the Synchronization library, which is not built with TSan), so TSan sees two
/// threads touch the value with nothing ordering them and reports a data race that is not
/// one: `scripts/test.sh --sanitize thread` did, on `MonitorStore` under a push stream and a
/// state save. Entering and leaving the lock here tells TSan about the ordering; in builds
/// without TSan the annotations are a branch on a null weak symbol.
public final class Locked<Value: ~Copyable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: consuming sending Value) {
        self.mutex = Mutex(value)
    }

    /// Runs `body` with the value, the lock held.
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let identity = Unmanaged.passUnretained(self).toOpaque()
        return try self.mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            syncmon_tsan_acquire(identity)
            defer { syncmon_tsan_release(identity) }
            return try body(&value)
        }
    }
}
