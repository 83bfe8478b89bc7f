import NIOPosix
import SyncmonLock

#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for calls that block — sd-bus and sd-journal, rtnetlink, inotify, a
/// canary's files on a mount that may hang — so that they never hold one of Swift's few
/// cooperative threads. Its wake descriptor (`WakeDescriptor`) is polled beside the thread's own
/// descriptors, and written to stop it: at the calling task's cancellation, or `wake()`.
///
/// The one way the sources wait on blocking descriptors: no other thread, pipe or poll loop.
/// Its owner stops it (`stop()` or `stopLater()`) when done: the thread and the pipe are not
/// given back otherwise.
package final class BlockingThread: Sendable {
    private let pool = NIOThreadPool(numberOfThreads: 1)
    private let ends: (read: Int32, write: Int32)
    /// Whether the pipe is closed: a wake after that must not write to a descriptor number
    /// the process may have handed out again.
    private let closed = Locked(false)

    /// Starts the thread. Throws when the wake pipe cannot be made, naming why.
    package init() throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemCallError(operation: "pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.ends = (ends[0], ends[1])
        self.pool.start()
    }

    /// What the thread's work polls beside its own descriptors.
    package var wakeDescriptor: WakeDescriptor { WakeDescriptor(descriptor: self.ends.read) }

    /// Runs `body` on the thread and returns what it returns; the calling task's cancellation
    /// wakes it (a `body` that polls the wake descriptor then returns). `nil` when the thread
    /// was stopped already.
    package func run<Result: Sendable>(_ body: @escaping @Sendable (WakeDescriptor) -> Result) async -> Result? {
        let wake = self.wakeDescriptor
        return await withTaskCancellationHandler {
            try? await self.pool.runIfActive { body(wake) }
        } onCancel: {
            self.wake()
        }
    }

    /// Starts `body` on the thread without waiting for it: a loop that runs until `stop()`.
    package func start(_ body: @escaping @Sendable (WakeDescriptor) -> Void) {
        let wake = self.wakeDescriptor
        self.pool.submit { state in
            guard case .active = state else { return }
            body(wake)
        }
    }

    /// Asks the thread's work to stop: every later poll of the wake descriptor says `woken`.
    package func wake() {
        self.closed.withLock { closed in
            guard !closed else { return }
            var one: UInt8 = 1
            _ = write(self.ends.write, &one, 1)
        }
    }

    /// Wakes the thread, lets its work return, then ends the thread and closes the pipe.
    package func stop() async {
        self.wake()
        try? await self.pool.shutdownGracefully()
        self.closePipe()
    }

    /// `stop()` for a caller that cannot wait: the thread ends on its own once its work returns.
    package func stopLater() {
        self.wake()
        self.pool.shutdownGracefully { _ in self.closePipe() }
    }

    private func closePipe() {
        self.closed.withLock { closed in
            guard !closed else { return }
            closed = true
            close(self.ends.read)
            close(self.ends.write)
        }
    }
}
