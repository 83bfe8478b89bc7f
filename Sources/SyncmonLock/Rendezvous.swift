#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value two threads hand work back and forth through, one waiting until the other has
/// changed it: a mutex and a condition variable around the value.
///
/// ``Locked`` is for a value only read and written under its lock; this is for the rarer case
/// where a thread must sleep until another thread's change (the push socket's decode helper).
/// ThreadSanitizer understands pthread mutexes and condition variables by itself.
public final class Rendezvous<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(self.mutex, nil)
        pthread_cond_init(self.condition, nil)
    }

    deinit {
        pthread_cond_destroy(self.condition)
        pthread_mutex_destroy(self.mutex)
        self.condition.deallocate()
        self.mutex.deallocate()
    }

    /// Changes the value under the mutex, then wakes every thread waiting on it unless the
    /// change is one no waiter waits for (`waking: false` spares the waiters a wakeup).
    public func update<Result>(waking: Bool = true, _ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(self.mutex)
        let result = body(&self.value)
        pthread_mutex_unlock(self.mutex)
        if waking { pthread_cond_broadcast(self.condition) }
        return result
    }

    /// Sleeps until `ready` holds for the value, then changes it as ``update(waking:_:)`` does.
    public func wait<Result>(until ready: (Value) -> Bool, waking: Bool = true, then body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(self.mutex)
        while !ready(self.value) { pthread_cond_wait(self.condition, self.mutex) }
        let result = body(&self.value)
        pthread_mutex_unlock(self.mutex)
        if waking { pthread_cond_broadcast(self.condition) }
        return result
    }
}
