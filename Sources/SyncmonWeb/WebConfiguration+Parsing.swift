import SyncmonCore

extension WebConfiguration {
    /// Parses a web configuration file's text. Relative paths resolve against `directory` (the
    /// file's own directory). Like exporter-toolkit's strict unmarshalling, an unknown key is an
    /// error; keys exporter-toolkit knows but syncmon does not serve (`client_allowed_sans`,
    /// `rate_limit`) are refused too rather than silently ignored.
    public static func parse(_ text: String, directory: String) throws(ParseError) -> WebConfiguration {
        let root = try YAMLReader.read(text)
        var configuration = WebConfiguration()
        guard let root, !root.isNull else { return configuration }
        for (key, value) in try Self.mapping(root, in: nil) {
            let name = try Self.key(key)
            switch name {
            case "tls_server_config": configuration.tls = try Self.tlsServer(value, sectionLine: key.line, directory: directory)
            case "http_server_config": configuration.headers = try Self.httpServer(value)
            case "basic_auth_users": configuration.users = try Self.users(value)
            case "rate_limit": throw ParseError(line: key.line, "rate_limit is not supported by syncmon")
            default: throw Self.unknownKey(name, line: key.line, section: nil, known: ["tls_server_config", "http_server_config", "basic_auth_users"])
            }
        }
        return configuration
    }

    /// Joins a relative path to the configuration file's directory (exporter-toolkit's `JoinDir`).
    public static func resolve(_ path: String, in directory: String) -> String {
        if path.isEmpty || path.hasPrefix("/") { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// `sectionLine` is the line of the `tls_server_config:` key, named by refusals of the section
    /// as a whole (a missing key, settings that contradict each other).
    private static func tlsServer(_ node: YAMLNode, sectionLine: Int, directory: String) throws(ParseError) -> TLSServer? {
        var section = TLSServerSection(directory: directory)
        for (keyNode, value) in try Self.mapping(node, in: "tls_server_config") {
            try section.read(keyNode, value)
        }
        return try section.server(sectionLine: sectionLine)
    }

    /// What a `tls_server_config:` section says, read key by key, then checked as a whole.
    private struct TLSServerSection {
        let directory: String
        var certificate: PEMSource? = nil
        var key: PEMSource? = nil
        var clientCA: PEMSource? = nil
        var clientAuthText: String? = nil
        var minimum = TLSVersion.tls12
        var maximum = TLSVersion.tls13
        var ciphers: [CipherSuite] = []
        var curves: [Curve] = []

        /// Takes one key of the section.
        mutating func read(_ keyNode: YAMLNode, _ value: YAMLNode) throws(ParseError) {
            let name = try WebConfiguration.key(keyNode)
            let line = keyNode.line
            switch name {
            case "cert_file", "cert":
                self.certificate = try self.pem(self.certificate, name, value, keyNode, "cert and cert_file")
            case "key_file", "key":
                self.key = try self.pem(self.key, name, value, keyNode, "key and key_file")
            case "client_ca_file", "client_ca":
                self.clientCA = try self.pem(self.clientCA, name, value, keyNode, "client_ca and client_ca_file")
            case "client_auth_type": self.clientAuthText = try WebConfiguration.string(value, name)
            case "min_version", "max_version":
                let text = try WebConfiguration.string(value, name)
                guard let version = TLSVersion(rawValue: text) else {
                    throw ParseError(line: line, "\(name): unknown TLS version \(text) (expected TLS10, TLS11, TLS12 or TLS13)")
                }
                if name == "min_version" { self.minimum = version } else { self.maximum = version }
            case "cipher_suites":
                for item in try WebConfiguration.strings(value, name) {
                    guard let suite = CipherSuite.known.first(where: { $0.name == item.text }) else {
                        throw ParseError(line: item.line, "cipher_suites: unknown cipher: \(item.text)")
                    }
                    self.ciphers.append(suite)
                }
            case "curve_preferences":
                for item in try WebConfiguration.strings(value, name) {
                    guard let curve = Curve(rawValue: item.text) else {
                        throw ParseError(line: item.line, "curve_preferences: unknown curve: \(item.text) (expected CurveP256, CurveP384, CurveP521 or X25519)")
                    }
                    self.curves.append(curve)
                }
            case "prefer_server_cipher_suites":
                // The server's order is always preferred here; the key is accepted for files
                // written for exporter-toolkit.
                _ = try WebConfiguration.bool(value, name)
            case "client_allowed_sans":
                throw ParseError(line: line, "client_allowed_sans is not supported by syncmon; use a client CA that issues only the allowed clients")
            default:
                let known = [
                    "cert_file", "cert", "key_file", "key", "client_ca_file", "client_ca", "client_auth_type", "min_version", "max_version",
                    "cipher_suites", "curve_preferences", "prefer_server_cipher_suites",
                ]
                throw WebConfiguration.unknownKey(name, line: line, section: "tls_server_config", known: known)
            }
        }

        /// A PEM key (`…_file` names a file, the bare name holds the text), where `current` is
        /// what the section said before: Go takes the file when both are given; one of the two
        /// is a mistake worth naming.
        private func pem(_ current: PEMSource?, _ name: String, _ value: YAMLNode, _ keyNode: YAMLNode, _ names: String) throws(ParseError)
            -> PEMSource?
        {
            let text = try WebConfiguration.string(value, name)
            guard current == nil else { throw ParseError(line: keyNode.line, "tls_server_config: set only one of \(names)") }
            if text.isEmpty { return nil }
            return name.hasSuffix("_file") ? .file(WebConfiguration.resolve(text, in: self.directory)) : .inline(text)
        }

        /// The section checked as a whole; nil when it turns nothing on (exporter-toolkit's
        /// IsEnabled: the server stays plain HTTP).
        func server(sectionLine line: Int) throws(ParseError) -> TLSServer? {
            var clientAuth = ClientAuth.none
            if let clientAuthText = self.clientAuthText {
                guard let parsed = ClientAuth.parse(clientAuthText) else {
                    throw ParseError(
                        line: line,
                        "invalid client_auth_type \(clientAuthText) (expected NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert)"
                    )
                }
                clientAuth = parsed
            }
            guard self.certificate != nil || self.key != nil || self.clientCA != nil || !(self.clientAuthText ?? "").isEmpty else { return nil }
            guard let certificate = self.certificate else { throw ParseError(line: line, "tls_server_config: missing one of cert or cert_file") }
            guard let key = self.key else { throw ParseError(line: line, "tls_server_config: missing one of key or key_file") }
            if self.clientCA != nil, clientAuth == .none || clientAuth == .request {
                throw ParseError(
                    line: line,
                    "tls_server_config: a client CA is set but client_auth_type does not verify client certificates (use RequireAndVerifyClientCert)")
            }
            guard self.minimum <= self.maximum else {
                throw ParseError(line: line, "tls_server_config: min_version \(self.minimum.rawValue) is above max_version \(self.maximum.rawValue)")
            }
            var tls = TLSServer(certificate: certificate, key: key)
            tls.clientAuth = clientAuth
            tls.clientCA = self.clientCA
            tls.minimumVersion = self.minimum
            tls.maximumVersion = self.maximum
            tls.cipherSuites = self.ciphers
            tls.curves = self.curves
            return tls
        }
    }

    /// `unknown key basic_auth_user (did you mean basic_auth_users?)`: the nearest key the
    /// section knows (``NearestName``, as the daemon's configuration file suggests), when one is near.
    static func unknownKey(_ name: String, line: Int, section: String?, known: [String]) -> ParseError {
        var message = "unknown key \(name)" + (section.map { " in \($0)" } ?? "")
        if let nearest = NearestName.nearest(to: name, in: known) { message += " (did you mean \(nearest)?)" }
        return ParseError(line: line, message)
    }

    private static func httpServer(_ node: YAMLNode) throws(ParseError) -> [String: String] {
        var headers: [String: String] = [:]
        for (keyNode, value) in try Self.mapping(node, in: "http_server_config") {
            let name = try Self.key(keyNode)
            switch name {
            case "http2":
                // syncmon serves HTTP/1.1 only; `http2: true` (Go's default) asks for nothing more.
                _ = try Self.bool(value, name)
            case "headers":
                for (headerNode, headerValue) in try Self.mapping(value, in: "headers") {
                    let header = try Self.key(headerNode)
                    let text = try Self.string(headerValue, header)
                    guard let allowed = Self.configurableHeaders.first(where: { $0.name == header }) else {
                        throw ParseError(line: headerNode.line, "HTTP header \"\(header)\" can not be configured")
                    }
                    if !allowed.values.isEmpty, !allowed.values.contains(text) {
                        let expected = allowed.values.map { "\"\($0)\"" }.joined(separator: " or ")
                        throw ParseError(line: headerValue.line, "invalid value for \(header): expected \(expected), got \"\(text)\"")
                    }
                    // Blank means unset, as in exporter-toolkit's documentation.
                    if !text.isEmpty { headers[header] = text }
                }
            default:
                throw Self.unknownKey(name, line: keyNode.line, section: "http_server_config", known: ["http2", "headers"])
            }
        }
        return headers
    }

    private static func users(_ node: YAMLNode) throws(ParseError) -> [String: String] {
        var users: [String: String] = [:]
        for (keyNode, value) in try Self.mapping(node, in: "basic_auth_users") {
            let user = try Self.key(keyNode)
            let hash = value.isNull ? "" : try Self.string(value, user)
            guard BcryptHash(hash) != nil else {
                throw ParseError(
                    line: value.line,
                    "basic_auth_users: the hash of \(user) is not a bcrypt hash ($2y$, $2b$ or $2a$, a cost of 04 to 31 and 53 characters, as htpasswd -nBC 10 \"\" prints)"
                )
            }
            users[user] = hash
        }
        return users
    }

    // MARK: Node helpers

    /// A mapping's pairs; a null value (`key:` with nothing after it) is an empty mapping.
    private static func mapping(_ node: YAMLNode, in section: String?) throws(ParseError) -> [(key: YAMLNode, value: YAMLNode)] {
        if node.isNull { return [] }
        guard case .mapping(let pairs, _) = node else {
            throw ParseError(
                line: node.line,
                section.map { "\($0): expected a mapping of key: value" } ?? "expected a mapping of tls_server_config, http_server_config and basic_auth_users")
        }
        return pairs
    }

    private static func key(_ node: YAMLNode) throws(ParseError) -> String {
        guard case .scalar(let text, _, _) = node else { throw ParseError(line: node.line, "keys must be plain strings") }
        return text
    }

    private static func string(_ node: YAMLNode, _ name: String) throws(ParseError) -> String {
        if node.isNull { return "" }
        guard case .scalar(let text, _, _) = node else { throw ParseError(line: node.line, "\(name): expected a string") }
        return text
    }

    private static func bool(_ node: YAMLNode, _ name: String) throws(ParseError) -> Bool {
        guard let value = node.bool else { throw ParseError(line: node.line, "\(name): expected true or false") }
        return value
    }

    private static func strings(_ node: YAMLNode, _ name: String) throws(ParseError) -> [(text: String, line: Int)] {
        if node.isNull { return [] }
        guard case .sequence(let items, _) = node else { throw ParseError(line: node.line, "\(name): expected a list") }
        var result: [(text: String, line: Int)] = []
        for item in items { result.append((try Self.string(item, name), item.line)) }
        return result
    }
}
