import Glibc

/// Environment variables set for a test, with the previous values kept to put back.
///
/// libsystemd reads `NOTIFY_SOCKET`, `WATCHDOG_*` and `LISTEN_*` from the process environment, so these tests must
/// change it. The environment is process-wide and not thread-safe: only tests in the serialized
/// ``SystemIntegrationTests`` suite may use this. Use as
/// `let environment = ProcessEnvironment(["NAME": "value"]); defer { environment.restore() }`.
struct ProcessEnvironment {
    /// The values before this override (`nil`: was unset).
    private let previous: [String: String?]

    /// Sets `variables` (a `nil` value unsets).
    init(_ variables: [String: String?]) {
        var previous: [String: String?] = [:]
        for (name, value) in variables {
            previous[name] = getenv(name).map { String(cString: $0) }
            Self.set(name, value)
        }
        self.previous = previous
    }

    /// Puts back the values from before.
    func restore() {
        for (name, value) in self.previous {
            Self.set(name, value)
        }
    }

    /// Sets or unsets one variable.
    private static func set(_ name: String, _ value: String?) {
        if let value {
            setenv(name, value, 1)
        } else {
            unsetenv(name)
        }
    }
}
