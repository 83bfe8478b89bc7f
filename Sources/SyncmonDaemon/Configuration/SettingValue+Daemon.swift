import SyncmonCore
import SyncmonSources

extension SettingValue where Value == TimeSpan {
    /// A stall threshold: a duration whose `0` disables the detector.
    package static var threshold: Self { Self.duration(zero: "disables the detector") }
}

extension SettingValue where Value == [UInt32] {
    /// User or group names or numeric ids, separated by commas or blanks; names resolved now.
    package static func accounts(groups: Bool) -> Self {
        let kind = groups ? "group" : "user"
        let accepted = "\(kind) names or numeric ids, separated by commas or spaces"
        return SettingValue(placeholder: groups ? "GROUPS" : "USERS", accepted: accepted) { text throws(SettingValueError) in
            var ids: [UInt32] = []
            for name in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
                guard let id = groups ? AccountLookup.group(String(name)) : AccountLookup.user(String(name)) else {
                    throw SettingValueError("no \(kind) named \(name); write \(accepted)")
                }
                ids.append(id)
            }
            guard !ids.isEmpty else { throw SettingValueError("empty; write \(accepted)") }
            return ids
        } format: {
            $0.map(String.init).joined(separator: ", ")
        }
    }
}

extension SettingValue where Value == String {
    /// A subscribe source, `[NAME=]URL` (docs/subscribe.md): checked now, kept as written.
    package static var source: Self {
        SettingValue(
            placeholder: "[NAME=]URL",
            accepted: "[NAME=]URL with URL unix:/path, http(s)://host:port/path, file:/path or syncthing+http(s)://host:port"
        ) { text throws(SettingValueError) in
            do throws(SourceSpec.ParseError) {
                _ = try SourceSpec.parse(text)
            } catch {
                throw SettingValueError("\(Self.quoted(text)): \(error.message)")
            }
            return text
        } format: {
            $0
        }
    }
}
