#if canImport(Glibc)
import Glibc
#endif

/// The read end of a `BlockingThread`'s wake pipe: polled beside the descriptors the thread
/// waits on, so that stopping never waits for the kernel or a peer. Once written it stays
/// readable: a wake is a request to stop, not a message.
package struct WakeDescriptor: Sendable {
    /// What `poll(_:timeout:)` saw.
    package enum Outcome: Equatable, Sendable {
        /// At least one of the descriptors is ready (their `revents` say which).
        case ready
        /// The thread is asked to stop.
        case woken
        /// The timeout passed with nothing ready.
        case timedOut
        case failed(SystemCallError)
    }

    let descriptor: Int32

    /// Blocks in poll(2) on `descriptors` and the wake descriptor until one is ready, the
    /// thread is woken, or `timeout` milliseconds pass (-1: no limit). An interrupted wait is
    /// waited again. A negative descriptor in `descriptors` is skipped, as poll(2) does.
    package func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Outcome {
        descriptors.append(pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0))
        defer { descriptors.removeLast() }
        while true {
            let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                let code = errno
                if code == EINTR { continue }
                return .failed(SystemCallError(operation: "poll", code: code))
            }
            if descriptors[descriptors.count - 1].revents != 0 { return .woken }
            return ready == 0 ? .timedOut : .ready
        }
    }

    /// Waits for `descriptor` to be readable; `false` when woken first (or poll failed).
    package func waitReadable(_ descriptor: Int32) -> Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return self.poll(&descriptors, timeout: -1) == .ready
    }

    /// Sleeps `milliseconds` unless woken; `true` when woken.
    package func sleep(milliseconds: Int32) -> Bool {
        var none: [pollfd] = []
        return self.poll(&none, timeout: milliseconds) == .woken
    }
}
