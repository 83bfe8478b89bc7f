import Testing

@testable import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// The system bus that cannot be opened, in words: the socket, the cause, and that `unit:`
/// sources need systemd and D-Bus; never `sd_bus_open_system: No such file or directory`.
@Suite("System bus errors")
struct SystemdBusErrorTests {
    @Test(
        "why the bus cannot be opened",
        arguments: [
            (ENOENT, "/run/dbus/system_bus_socket does not exist"),
            (ECONNREFUSED, "nothing listens on /run/dbus/system_bus_socket"),
            (EACCES, "permission denied on /run/dbus/system_bus_socket"),
            (EIO, "/run/dbus/system_bus_socket: Input/output error"),
        ])
    func cannotOpen(code: Int32, cause: String) {
        // The bus address the test runs with, if any, is what the message names.
        guard getenv("DBUS_SYSTEM_BUS_ADDRESS") == nil else { return }
        let error = SystemdError(operation: "sd_bus_open_system", errno: code, explanation: SystemdBus.cannotOpen(errno: code))
        #expect(
            "\(error)"
                == "cannot connect to the system bus: \(cause); unit: sources need systemd and D-Bus running on this host (a container without systemd cannot follow units)"
        )
        #expect(!"\(error)".contains("sd_bus"))
    }

    @Test("other failures keep the call and the reason")
    func plain() {
        #expect("\(SystemdError(operation: "sd_notify", errno: ECONNREFUSED))" == "sd_notify: Connection refused")
    }
}
