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
    /// (for work that never returns, which the caller must not be handed). `name` (at most 15
    /// bytes) is what `top -H` and `perf` show for the thread; without one it keeps the name
    /// of the thread that started it.
    public static func spawn(named name: String? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(
            Work {
                if let name { Self.nameCurrentThread(name) }
                body()
            }
        ).toOpaque()
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

    /// Names the calling thread through `/proc/thread-self/comm`: `pthread_setname_np` is a GNU
    /// extension Swift does not see in Glibc. A name that cannot be set is left unset.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
