#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work on a thread of its own.
public enum DedicatedThread {
    /// The work, handed to the new thread.
    private final class Work: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread; on the calling one when no thread can be had, rather than never.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        if !Self.spawn(body) { body() }
    }

    /// Runs `body` on a new thread; `false`, having run nothing, when no thread can be had
    /// (for work that never returns, which the caller must not be handed).
    public static func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, work)
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
