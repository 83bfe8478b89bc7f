import CSystemd
import Glibc

/// A property value of a systemd unit as the bus carries it, for the types the `unit:` source reads.
public enum BusValue: Sendable, Equatable {
    case string(String)
    case unsigned(UInt64)
    case signed(Int64)
    case boolean(Bool)
    /// `Job` (`(uo)`): the pending job's id and object path; id 0 when none.
    case job(id: UInt32, path: String)
    /// `ExecStart` (`a(sasbttttuii)`): the program of its first command, `nil` when it has none.
    case program(String?)
    /// A type this client does not read.
    case other
}

/// A connection to the system bus that speaks to systemd's manager (`org.freedesktop.systemd1`):
/// `Subscribe()`, loading a unit, reading its properties and receiving their `PropertiesChanged`
/// signals. sd-bus's variadic calls (`sd_bus_call_method`, `sd_bus_message_read`) cannot be called
/// from Swift, so every message is built and read one basic value at a time.
///
/// sd-bus is not thread-safe: one instance is used by one thread (the `unit:` source's).
public final class SystemdBus {
    /// A `PropertiesChanged` signal: the object, the interface and the changed values.
    public struct Change: Sendable {
        public var path: String
        public var interface: String
        public var values: [String: BusValue]

        public init(path: String, interface: String, values: [String: BusValue]) {
            self.path = path
            self.interface = interface
            self.values = values
        }
    }

    private var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    /// Signals received while processing, handed out by `process()`.
    fileprivate var received: [Change] = []
    /// The unit whose loading `watchLoads(of:)` follows, and whether news of it came.
    fileprivate var loadsOf: String? = nil
    fileprivate var loadNews = LoadNews()

    static let destination = "org.freedesktop.systemd1"

    /// Whether the connection goes through a bus daemon: signals then carry systemd's bus name
    /// as their sender; on a user manager's private socket they carry none.
    private let isBusClient: Bool

    /// Opens the bus of `manager`: the system bus (`$DBUS_SYSTEM_BUS_ADDRESS`, else
    /// /run/dbus/system_bus_socket), or a user manager's private socket (which does not exist, or
    /// refuses, while that user manager does not run).
    public init(manager: SystemdManager = .system) throws(SystemdError) {
        var bus: OpaquePointer? = nil
        guard let socket = manager.privateSocket else {
            let result = sd_bus_open_system(&bus)
            guard result >= 0, let bus else {
                throw SystemdError(operation: "sd_bus_open_system", returnValue: result, explanation: Self.cannotOpen(errno: -result))
            }
            self.bus = bus
            self.isBusClient = true
            return
        }
        var result = sd_bus_new(&bus)
        guard result >= 0, let bus else { throw SystemdError(operation: "sd_bus_new", returnValue: result) }
        result = ("unix:path=" + socket).withCString { sd_bus_set_address(bus, $0) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_unref(bus)
            throw SystemdError(
                operation: "sd_bus_start", returnValue: result,
                explanation: "cannot connect to the \(manager.label) manager at \(socket): is its user manager running (linger or a login)?"
            )
        }
        self.bus = bus
        self.isBusClient = false
    }

    /// Why the system bus cannot be reached, naming its socket and what must run: `unit:`
    /// sources ask systemd, over D-Bus, about the units they follow.
    static func cannotOpen(errno code: Int32) -> String {
        let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
        let socket = address ?? "/run/dbus/system_bus_socket"
        let reason: String
        switch code {
        case ENOENT: reason = "\(socket) does not exist"
        case ECONNREFUSED: reason = "nothing listens on \(socket)"
        case EACCES, EPERM: reason = "permission denied on \(socket)"
        default: reason = "\(socket): " + (strerror(code).map { String(cString: $0) } ?? "errno \(code)")
        }
        return "cannot connect to the system bus: \(reason); unit: sources need systemd and D-Bus running on this host"
            + " (a container without systemd cannot follow units)"
    }

    deinit {
        for slot in self.slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(self.bus)
    }

    /// The descriptor to poll, and the events to poll it for.
    public var fileDescriptor: Int32 { sd_bus_get_fd(self.bus) }
    public var pollEvents: Int16 { Int16(truncatingIfNeeded: sd_bus_get_events(self.bus)) }

    /// `Manager.Subscribe()`: without it systemd 252 sends no unit signals at all.
    public func subscribe() throws(SystemdError) {
        _ = try self.call(path: "/org/freedesktop/systemd1", interface: "org.freedesktop.systemd1.Manager", member: "Subscribe", argument: nil)
    }

    /// `Manager.LoadUnit(name)`: the unit's object path, loading it if needed (a unit that does
    /// not exist gets an object too, whose `LoadState` is `not-found`).
    public func loadUnit(_ name: String) throws(SystemdError) -> String {
        let reply = try self.call(path: "/org/freedesktop/systemd1", interface: "org.freedesktop.systemd1.Manager", member: "LoadUnit", argument: name)
        defer { sd_bus_message_unref(reply) }
        var path: UnsafePointer<CChar>? = nil
        let result = sd_bus_message_read_basic(reply, Self.type("o"), &path)
        guard result > 0, let path else { throw SystemdError(operation: "LoadUnit reply", returnValue: result < 0 ? result : -EBADMSG) }
        return String(cString: path)
    }

    /// `Properties.GetAll(interface)` of the object at `path`.
    public func properties(path: String, interface: String) throws(SystemdError) -> [String: BusValue] {
        let reply = try self.call(path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll", argument: interface)
        defer { sd_bus_message_unref(reply) }
        return try Self.readDictionary(reply)
    }

    /// Receives the `PropertiesChanged` signals of the object at `path` from now on.
    public func watch(path: String) throws(SystemdError) {
        var slot: OpaquePointer? = nil
        let result = sd_bus_match_signal(
            self.bus, &slot, self.isBusClient ? Self.destination : nil, path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                let bus = Unmanaged<SystemdBus>.fromOpaque(userdata).takeUnretainedValue()
                bus.record(message)
                return 0
            },
            Unmanaged.passUnretained(self).toOpaque()
        )
        guard result >= 0, let slot else { throw SystemdError(operation: "sd_bus_match_signal", returnValue: result) }
        self.slots.append(slot)
    }

    /// Receives the manager's `UnitNew` (for `unit`) and `Reloading` signals from now on: a unit
    /// that was not loaded may be after them (its file written, then started or `daemon-reload`),
    /// and systemd may have dropped the object of a unit it could not load, whose own
    /// `PropertiesChanged` then never come. `takeLoadNews()` tells.
    public func watchLoads(of unit: String) throws(SystemdError) {
        self.loadsOf = unit
        let sender = self.isBusClient ? "sender='\(Self.destination)'," : ""
        let manager = "type='signal',\(sender)path='/org/freedesktop/systemd1',interface='org.freedesktop.systemd1.Manager'"
        // UnitNew filtered by the bus on its first argument: no wake-up for every other unit loaded.
        for rule in [manager + ",member='UnitNew',arg0='\(unit)'", manager + ",member='Reloading'"] {
            var slot: OpaquePointer? = nil
            let result = sd_bus_add_match(
                self.bus, &slot, rule,
                { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    Unmanaged<SystemdBus>.fromOpaque(userdata).takeUnretainedValue().recordLoad(message)
                    return 0
                },
                Unmanaged.passUnretained(self).toOpaque()
            )
            guard result >= 0, let slot else { throw SystemdError(operation: "sd_bus_add_match", returnValue: result) }
            self.slots.append(slot)
        }
    }

    /// What the manager announced since the last `takeLoadNews()`.
    public struct LoadNews: Sendable, Equatable {
        /// A `daemon-reload` finished: unit files were read again.
        public var reloaded = false
        /// `UnitNew` named the unit: an object for it was made — by a start, or by anyone's
        /// `LoadUnit`, this client's own included, for a unit systemd then cannot load.
        public var announced = false

        public var isEmpty: Bool { !self.reloaded && !self.announced }

        public init(reloaded: Bool = false, announced: Bool = false) {
            self.reloaded = reloaded
            self.announced = announced
        }
    }

    /// The news since the last call.
    public func takeLoadNews() -> LoadNews {
        defer { self.loadNews = LoadNews() }
        return self.loadNews
    }

    /// `Manager.GetUnit(name)`: the object path of a unit systemd has in memory, without loading
    /// it (so without a `UnitNew` of its own); `nil` when it has none.
    public func loadedUnit(_ name: String) -> String? {
        guard let reply = try? self.call(path: "/org/freedesktop/systemd1", interface: "org.freedesktop.systemd1.Manager", member: "GetUnit", argument: name)
        else { return nil }
        defer { sd_bus_message_unref(reply) }
        var path: UnsafePointer<CChar>? = nil
        guard sd_bus_message_read_basic(reply, Self.type("o"), &path) > 0, let path else { return nil }
        return String(cString: path)
    }

    fileprivate func recordLoad(_ message: OpaquePointer) {
        guard let member = sd_bus_message_get_member(message) else { return }
        if String(cString: member) == "Reloading" {
            var reloading: Int32 = 0
            // Reloading(false): the reload finished, units are loaded again.
            if sd_bus_message_read_basic(message, Self.type("b"), &reloading) > 0, reloading == 0 { self.loadNews.reloaded = true }
            return
        }
        var unit: UnsafePointer<CChar>? = nil
        if sd_bus_message_read_basic(message, Self.type("s"), &unit) > 0, let unit, String(cString: unit) == self.loadsOf { self.loadNews.announced = true }
    }

    /// Processes everything the connection has (read or readable without blocking): the
    /// signals received. The owner polls `fileDescriptor` between calls. Throws when the
    /// connection is gone (dbus restarted, systemd reexecuted).
    public func process() throws(SystemdError) -> [Change] {
        while true {
            let result = sd_bus_process(self.bus, nil)
            guard result >= 0 else { throw SystemdError(operation: "sd_bus_process", returnValue: result) }
            if result == 0 { break }
        }
        defer { self.received.removeAll() }
        return self.received
    }

    fileprivate func record(_ message: OpaquePointer) {
        guard let path = sd_bus_message_get_path(message) else { return }
        var interface: UnsafePointer<CChar>? = nil
        guard sd_bus_message_read_basic(message, Self.type("s"), &interface) > 0, let interface,
            let values = try? Self.readDictionary(message)
        else { return }
        self.received.append(Change(path: String(cString: path), interface: String(cString: interface), values: values))
    }

    /// A method call to systemd with at most one string argument; the reply, to be unreferenced.
    private func call(path: String, interface: String, member: String, argument: String?) throws(SystemdError) -> OpaquePointer {
        var message: OpaquePointer? = nil
        var result = sd_bus_message_new_method_call(self.bus, &message, Self.destination, path, interface, member)
        guard result >= 0, let message else { throw SystemdError(operation: "sd_bus_message_new_method_call", returnValue: result) }
        defer { sd_bus_message_unref(message) }
        if let argument {
            result = argument.withCString { sd_bus_message_append_basic(message, Self.type("s"), $0) }
            guard result >= 0 else { throw SystemdError(operation: "sd_bus_message_append_basic", returnValue: result) }
        }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer? = nil
        result = sd_bus_call(self.bus, message, 25_000_000, &error, &reply)
        guard result >= 0, let reply else {
            let name = error.message.map { String(cString: $0) } ?? error.name.map { String(cString: $0) } ?? ""
            throw SystemdError(operation: "\(member)\(name.isEmpty ? "" : " (\(name))")", returnValue: result < 0 ? result : -EBADMSG)
        }
        return reply
    }

    static func type(_ character: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: character.value) }
}

extension SystemdBus {
    /// Reads an `a{sv}` at the message's position.
    fileprivate static func readDictionary(_ message: OpaquePointer) throws(SystemdError) -> [String: BusValue] {
        var values: [String: BusValue] = [:]
        var result = sd_bus_message_enter_container(message, Self.type("a"), "{sv}")
        guard result > 0 else { throw SystemdError(operation: "read a{sv}", returnValue: result < 0 ? result : -EBADMSG) }
        while true {
            result = sd_bus_message_enter_container(message, Self.type("e"), "sv")
            guard result >= 0 else { throw SystemdError(operation: "read {sv}", returnValue: result) }
            if result == 0 { break }
            var key: UnsafePointer<CChar>? = nil
            result = sd_bus_message_read_basic(message, Self.type("s"), &key)
            guard result > 0, let key else { throw SystemdError(operation: "read property name", returnValue: result < 0 ? result : -EBADMSG) }
            values[String(cString: key)] = try Self.readVariant(message)
            sd_bus_message_exit_container(message)
        }
        sd_bus_message_exit_container(message)
        return values
    }

    /// Reads one variant: the basic types systemd's unit properties use, `Job` and `ExecStart`.
    private static func readVariant(_ message: OpaquePointer) throws(SystemdError) -> BusValue {
        var kind: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        var result = sd_bus_message_peek_type(message, &kind, &contents)
        guard result > 0, let contents else { throw SystemdError(operation: "peek variant", returnValue: result < 0 ? result : -EBADMSG) }
        let signature = String(cString: contents)
        result = sd_bus_message_enter_container(message, Self.type("v"), contents)
        guard result > 0 else { throw SystemdError(operation: "enter variant", returnValue: result < 0 ? result : -EBADMSG) }
        defer { sd_bus_message_exit_container(message) }
        switch signature {
        case "s", "o":
            var text: UnsafePointer<CChar>? = nil
            sd_bus_message_read_basic(message, Self.type(signature == "s" ? "s" : "o"), &text)
            return .string(text.map { String(cString: $0) } ?? "")
        case "u":
            var value: UInt32 = 0
            sd_bus_message_read_basic(message, Self.type("u"), &value)
            return .unsigned(UInt64(value))
        case "t":
            var value: UInt64 = 0
            sd_bus_message_read_basic(message, Self.type("t"), &value)
            return .unsigned(value)
        case "i":
            var value: Int32 = 0
            sd_bus_message_read_basic(message, Self.type("i"), &value)
            return .signed(Int64(value))
        case "b":
            var value: Int32 = 0
            sd_bus_message_read_basic(message, Self.type("b"), &value)
            return .boolean(value != 0)
        case "(uo)":
            var id: UInt32 = 0
            var path: UnsafePointer<CChar>? = nil
            sd_bus_message_enter_container(message, Self.type("r"), "uo")
            sd_bus_message_read_basic(message, Self.type("u"), &id)
            sd_bus_message_read_basic(message, Self.type("o"), &path)
            sd_bus_message_exit_container(message)
            return .job(id: id, path: path.map { String(cString: $0) } ?? "/")
        case "a(sasbttttuii)":
            return .program(Self.readFirstProgram(message))
        default:
            sd_bus_message_skip(message, contents)
            return .other
        }
    }

    /// The program of the first command of an `ExecStart`-like array; the rest skipped.
    private static func readFirstProgram(_ message: OpaquePointer) -> String? {
        guard sd_bus_message_enter_container(message, Self.type("a"), "(sasbttttuii)") > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        var program: String? = nil
        if sd_bus_message_enter_container(message, Self.type("r"), "sasbttttuii") > 0 {
            var path: UnsafePointer<CChar>? = nil
            sd_bus_message_read_basic(message, Self.type("s"), &path)
            program = path.map { String(cString: $0) }
            sd_bus_message_skip(message, "asbttttuii")
            sd_bus_message_exit_container(message)
        }
        while sd_bus_message_skip(message, "(sasbttttuii)") > 0 {}
        return program
    }
}
