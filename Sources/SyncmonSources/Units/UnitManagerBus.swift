import SyncmonSystemd

/// What a `unit:` source asks of a service manager's bus: `SystemdBus` on a real manager, a
/// scripted one in the unit source's service tests (the follower's logic on the test's clock,
/// without systemd).
///
/// Used by one thread, as sd-bus is: the follower's.
protocol UnitManagerBus: AnyObject {
    /// The descriptor to poll, and the events to poll it for.
    var fileDescriptor: Int32 { get }
    var pollEvents: Int16 { get }
    /// Asks the manager for its signals (`Subscribe`).
    func subscribe() throws(SystemdError)
    /// The object path of the unit `name`, loading it if need be.
    func loadUnit(_ name: String) throws(SystemdError) -> String
    /// The unit's object path if the manager has it loaded, without loading it.
    func loadedUnit(_ name: String) -> String?
    /// Every property of `interface` on the object at `path`.
    func properties(path: String, interface: String) throws(SystemdError) -> [String: BusValue]
    /// Follows `PropertiesChanged` of the object at `path`.
    func watch(path: String) throws(SystemdError)
    /// Follows the manager's `Reloading` and `UnitNew` of `unit`.
    func watchLoads(of unit: String) throws(SystemdError)
    /// The signals received since the last call; throws when the connection is gone.
    func process() throws(SystemdError) -> [SystemdBus.Change]
    /// What the manager announced of the unit's loading since the last call.
    func takeLoadNews() -> SystemdBus.LoadNews
}

extension SystemdBus: UnitManagerBus {}

/// Opens the bus of a manager: `SystemdBus`'s own initializer, or a test's.
typealias UnitManagerConnector = @Sendable (SystemdManager) throws(SystemdError) -> any UnitManagerBus
