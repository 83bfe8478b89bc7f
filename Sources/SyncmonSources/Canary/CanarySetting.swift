import SyncmonCore

#if canImport(Glibc)
import Glibc
#endif

/// What `--canary ENGINE/DATABASE=PATH` and a `[canary ENGINE/DATABASE]` section say about
/// one canary (docs/canary.md); unset values take the defaults when the daemon starts.
package struct CanarySetting: Sendable, Hashable {
    package var path: String?
    package var interval: TimeSpan?
    package var lateAfter: TimeSpan?
    package var host: String?
    package var mode: CanaryMode?

    package init(path: String? = nil) {
        self.path = path
    }

    /// Splits `ENGINE/DATABASE=PATH` (the flag's value).
    package static func parseFlag(_ text: String) throws(CanarySettingError) -> (pair: String, path: String) {
        guard let equals = text.firstIndex(of: "="), Self.pairKey(String(text[..<equals])) != nil else {
            throw CanarySettingError("--canary takes ENGINE/DATABASE=PATH, not \(text)")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `ENGINE/DATABASE` as a pair key; `nil` when it is not one.
    package static func pairKey(_ text: String) -> PairKey? {
        guard let slash = text.firstIndex(of: "/"), let engine = EngineName.parse(String(text[..<slash])),
            let database = Database(String(text[text.index(after: slash)...]))
        else { return nil }
        return PairKey(engine: engine, database: database)
    }

    /// The canaries to run: every setting with its defaults filled in and its PATH checked
    /// (an existing directory, not a symbolic link). The error names the canary and the fix.
    package static func resolve(
        _ sections: [String: CanarySetting],
        flags: [String] = []
    ) throws(CanarySettingError) -> [(key: PairKey, configuration: CanaryConfiguration)] {
        var settings = sections
        for text in flags {
            let flag = try Self.parseFlag(text)
            settings[flag.pair, default: CanarySetting()].path = flag.path
        }
        var canaries: [(key: PairKey, configuration: CanaryConfiguration)] = []
        for (name, setting) in settings.sorted(by: { $0.key < $1.key }) {
            guard let key = Self.pairKey(name) else { throw CanarySettingError("canary \(name): not ENGINE/DATABASE") }
            guard let path = setting.path else { throw CanarySettingError("canary \(name): no path: set path = the folder the engine syncs") }
            if let interval = setting.interval, interval <= .zero { throw CanarySettingError("canary \(name): interval must be above 0") }
            if let problem = CanaryDirectory.validate(path) { throw CanarySettingError("canary \(name): \(problem)") }
            let hostName = setting.host ?? Self.hostName()
            guard let host = CanaryHost(hostName) else {
                throw CanarySettingError(
                    "canary \(name): the host name \(hostName) is not 1–64 characters of A-Z a-z 0-9 . _ -: set host = a name for this host")
            }
            canaries.append(
                (
                    key,
                    CanaryConfiguration(
                        path: path, host: host, interval: setting.interval ?? CanaryConfiguration.defaultInterval,
                        lateAfter: setting.lateAfter ?? CanaryConfiguration.defaultLateAfter, mode: setting.mode ?? .both)
                ))
        }
        return canaries
    }

    /// This host's name, up to its first dot.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(name.prefix { $0 != "." })
    }
}

/// A canary setting that cannot be taken.
package struct CanarySettingError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
