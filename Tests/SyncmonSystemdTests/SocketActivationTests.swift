import Glibc
import SyncmonSystemd
import Testing

extension SystemIntegrationTests {
    /// ``SocketActivation`` reading `LISTEN_FDS` and `LISTEN_FDNAMES`.
    @Suite("Socket activation")
    struct SocketActivationTests {
        /// The descriptor flags of 3 and 4, to put back after libsystemd marked them close-on-exec.
        ///
        /// libsystemd only sets `FD_CLOEXEC` on the passed descriptors; it does not check they are sockets. So the
        /// tests borrow whatever the test process has open at 3 and 4 instead of moving sockets there, which could
        /// close a descriptor the test runner relies on.
        private struct BorrowedDescriptors {
            /// The flags before, for 3 and 4.
            let flags: [Int32]

            /// Saves the flags, or cancels the test when 3 and 4 are not both open.
            init() throws {
                self.flags = [fcntl(3, F_GETFD), fcntl(4, F_GETFD)]
                guard self.flags.allSatisfy({ $0 >= 0 }) else {
                    try Test.cancel("descriptors 3 and 4 are not both open in this test process")
                }
            }

            /// Puts the flags back.
            func restore() {
                _ = fcntl(3, F_SETFD, self.flags[0])
                _ = fcntl(4, F_SETFD, self.flags[1])
            }
        }

        @Test("named descriptors in order, from 3")
        func namedDescriptors() throws {
            let descriptors = try BorrowedDescriptors()
            defer { descriptors.restore() }
            let environment = ProcessEnvironment(
                ["LISTEN_PID": String(getpid()), "LISTEN_FDS": "2", "LISTEN_FDNAMES": "metrics:events"]
            )
            defer { environment.restore() }
            #expect(
                try SocketActivation.listenedSockets() == [
                    ActivatedSocket(fileDescriptor: 3, name: "metrics"),
                    ActivatedSocket(fileDescriptor: 4, name: "events"),
                ]
            )
            // The environment is kept, so asking twice gives the same answer.
            #expect(try SocketActivation.listenedSockets().count == 2)
            #expect(fcntl(3, F_GETFD) & FD_CLOEXEC != 0)
        }

        @Test("unnamed descriptors are called unknown")
        func unnamedDescriptors() throws {
            let descriptors = try BorrowedDescriptors()
            defer { descriptors.restore() }
            let environment = ProcessEnvironment(["LISTEN_PID": String(getpid()), "LISTEN_FDS": "1", "LISTEN_FDNAMES": nil])
            defer { environment.restore() }
            #expect(try SocketActivation.listenedSockets() == [ActivatedSocket(fileDescriptor: 3, name: "unknown")])
        }

        @Test("nothing when not activated or activated for another process")
        func notActivated() throws {
            do {
                let unset = ProcessEnvironment(["LISTEN_PID": nil, "LISTEN_FDS": nil, "LISTEN_FDNAMES": nil])
                defer { unset.restore() }
                #expect(try SocketActivation.listenedSockets().isEmpty)
            }
            do {
                let other = ProcessEnvironment(
                    ["LISTEN_PID": String(getpid() + 1), "LISTEN_FDS": "2", "LISTEN_FDNAMES": nil]
                )
                defer { other.restore() }
                #expect(try SocketActivation.listenedSockets().isEmpty)
            }
        }

        @Test("names that do not match the count are an error")
        func mismatchedNames() throws {
            let descriptors = try BorrowedDescriptors()
            defer { descriptors.restore() }
            let environment = ProcessEnvironment(
                ["LISTEN_PID": String(getpid()), "LISTEN_FDS": "2", "LISTEN_FDNAMES": "only-one"]
            )
            defer { environment.restore() }
            #expect(throws: SystemdError.self) {
                try SocketActivation.listenedSockets()
            }
        }
    }
}
