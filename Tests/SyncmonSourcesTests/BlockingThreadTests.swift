import SyncmonContract
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `BlockingThread`, the one thread-plus-wake-pipe-plus-poll(2) of the sources: what a poll
/// says for a ready descriptor, a timeout and a wake; a body blocked in poll(2) returns when its
/// task is cancelled. Pipes only, no timing: a wait that never ended would hit the time limit.
@Suite("Blocking thread and its wake descriptor", .timeLimit(.minutes(1)))
struct BlockingThreadTests {
    /// A pipe for the test, closed at the end.
    final class Pipe: Sendable {
        let read: Int32
        let write: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            (self.read, self.write) = (ends[0], ends[1])
        }

        func send() {
            var one: UInt8 = 1
            _ = Glibc.write(self.write, &one, 1)
        }

        deinit {
            close(self.read)
            close(self.write)
        }
    }

    /// What the watched descriptor and the wake pipe hold when the body polls.
    enum Situation: String, CaseIterable, CustomTestStringConvertible {
        case readable, nothing, woken, wokenAndReadable
        var testDescription: String { self.rawValue }
    }

    @Test("poll says ready, timed out or woken; a wake wins over a ready descriptor", arguments: Situation.allCases)
    func outcomes(situation: Situation) async throws {
        let thread = try BlockingThread()
        let watched = try Pipe()
        if situation == .readable || situation == .wokenAndReadable { watched.send() }
        if situation == .woken || situation == .wokenAndReadable { thread.wake() }
        let read = watched.read
        let outcome = await thread.run { wake in
            var descriptors = [pollfd(fd: read, events: Int16(POLLIN), revents: 0)]
            return wake.poll(&descriptors, timeout: 0)
        }
        let expected: [Situation: WakeDescriptor.Outcome] = [.readable: .ready, .nothing: .timedOut, .woken: .woken, .wokenAndReadable: .woken]
        #expect(outcome == expected[situation])
        await thread.stop()
    }

    @Test("a body blocked in poll(2) with no limit returns when its task is cancelled")
    func cancellationWakes() async throws {
        let thread = try BlockingThread()
        let watched = try Pipe()
        let read = watched.read
        // The body says it started through a stream, awaited without a deadline of its own:
        // on a loaded machine the task may wait long for a thread, and the suite's time limit
        // is what catches a body that never runs.
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            await thread.run { wake in
                starting.yield()
                return wake.waitReadable(read)
            }
        }
        var startedBody = started.makeAsyncIterator()
        #expect(await startedBody.next() != nil)
        task.cancel()
        #expect(await task.value == false)
        await thread.stop()
    }

    @Test("a wake is kept: a later poll is woken too, and a stopped thread runs nothing")
    func wakeIsKept() async throws {
        let thread = try BlockingThread()
        thread.wake()
        #expect(await thread.run { $0.sleep(milliseconds: -1) } == true)
        #expect(await thread.run { $0.sleep(milliseconds: -1) } == true)
        await thread.stop()
        #expect(await thread.run { _ in 1 } == nil)
    }
}
