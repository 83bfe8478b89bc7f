/// An HTTP listen address as an operator writes it: `host:port`, `[ipv6]:port`, or `:port` for
/// every IPv4 interface. One parser for the setting's check (a bad value stops the start: exit
/// 64 on the command line, 78 with file and line in the configuration file) and the listener.
package struct ListenAddress: Equatable, Sendable {
    /// The host or address, without brackets; `0.0.0.0` for `:port`.
    package var host: String
    package var port: Int

    /// The forms accepted, as every refusal says them.
    package static let accepted = "host:port, [ipv6]:port, or :port for every IPv4 interface"

    /// The ports a listener can bind (0, "any free port", would listen where nobody looks).
    static let ports = 1...65_535
    /// Where a user's daemon on the default address goes when 9478 is taken, first free wins
    /// (docs/user-sessions.md).
    package static let fallbackPorts = 9479...9498

    /// Reads `text`, or says what is wrong with it and what to write.
    package static func parse(_ text: String) throws(SettingValueError) -> ListenAddress {
        guard !text.isEmpty else { throw SettingValueError("empty; write \(Self.accepted)") }
        let shown = SettingValue<String>.quoted(text)
        guard let colon = text.lastIndex(of: ":") else {
            throw SettingValueError("\(shown) has no port; write \(Self.accepted)")
        }
        let portText = text[text.index(after: colon)...]
        guard let port = Int(portText) else {
            throw SettingValueError("\(shown): the port \(SettingValue<String>.quoted(String(portText))) is not a number; write \(Self.accepted)")
        }
        guard Self.ports.contains(port) else {
            throw SettingValueError("\(shown): the port \(port) is out of range; write a port from 1 to 65535")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") || host.hasSuffix("]") {
            guard host.count > 2, host.hasPrefix("["), host.hasSuffix("]") else {
                throw SettingValueError("\(shown): unbalanced brackets; write \(Self.accepted)")
            }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw SettingValueError("\(shown): an IPv6 address goes in brackets, [::1]:9478")
        }
        return ListenAddress(host: host.isEmpty ? "0.0.0.0" : host, port: port)
    }
}

extension SettingValue where Value == String {
    /// A listen address (``ListenAddress``): checked now, kept as written.
    package static var listenAddress: Self {
        SettingValue(placeholder: "HOST:PORT", accepted: ListenAddress.accepted) { text throws(SettingValueError) in
            _ = try ListenAddress.parse(text)
            return text
        } format: {
            $0
        }
    }
}
