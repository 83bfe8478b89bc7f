/// What a `--web.config.file` says: the Prometheus exporter-toolkit web configuration format
/// that node_exporter and other exporters read (docs/configuration.md, "Web configuration").
///
/// A pure value: ``parse(_:directory:)`` turns the YAML text into it, resolving relative paths
/// against the file's directory as exporter-toolkit does, and rejects what exporter-toolkit
/// rejects (unknown keys, bad enumerations, a malformed bcrypt hash) with the line. Reading the
/// certificates it names is ``WebSecurity``'s job.
public struct WebConfiguration: Sendable, Equatable {
    /// `tls_server_config`, when it turns TLS on (a certificate, key, client CA or client
    /// authentication type is set; a section with only `min_version` leaves plain HTTP, as in
    /// exporter-toolkit).
    public var tls: TLSServer?
    /// `basic_auth_users`: user name to bcrypt hash. Empty: no password is asked.
    public var users: [String: String]
    /// `http_server_config.headers`: added to every response.
    public var headers: [String: String]

    public init(tls: TLSServer? = nil, users: [String: String] = [:], headers: [String: String] = [:]) {
        self.tls = tls
        self.users = users
        self.headers = headers
    }

    /// PEM text, from a file (`cert_file`) or written inline (`cert`).
    public enum PEMSource: Sendable, Equatable {
        case file(String)
        case inline(String)
    }

    /// `tls_server_config`.
    public struct TLSServer: Sendable, Equatable {
        public var certificate: PEMSource
        public var key: PEMSource
        public var clientAuth: ClientAuth = .none
        /// The CAs client certificates are verified against; the system's when absent.
        public var clientCA: PEMSource? = nil
        public var minimumVersion: TLSVersion = .tls12
        public var maximumVersion: TLSVersion = .tls13
        /// TLS 1.2 cipher suites, in preference order; empty: the library's defaults. TLS 1.3
        /// suites are accepted by name but cannot be narrowed (as in Go).
        public var cipherSuites: [CipherSuite] = []
        /// `curve_preferences`; empty: the library's defaults.
        public var curves: [Curve] = []

        public init(certificate: PEMSource, key: PEMSource) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// `client_auth_type`, named as Go's `tls.ClientAuthType`.
    public enum ClientAuth: String, Sendable, Equatable, CaseIterable {
        /// `NoClientCert` (the default).
        case none = "NoClientCert"
        /// `RequestClientCert`: asks, neither requires nor verifies; served like `NoClientCert`,
        /// since nothing reads an unverified certificate.
        case request = "RequestClientCert"
        /// `RequireAnyClientCert` (`RequireClientCert` is an old spelling): any certificate.
        case requireAny = "RequireAnyClientCert"
        /// `VerifyClientCertIfGiven`: none is fine; one given must verify.
        case verifyIfGiven = "VerifyClientCertIfGiven"
        /// `RequireAndVerifyClientCert`: mutual TLS.
        case requireAndVerify = "RequireAndVerifyClientCert"

        /// The YAML value, with exporter-toolkit's backwards-compatible spelling.
        static func parse(_ text: String) -> ClientAuth? {
            if text.isEmpty { return ClientAuth.none }
            if text == "RequireClientCert" { return .requireAny }
            return ClientAuth(rawValue: text)
        }
    }

    /// `min_version` / `max_version`.
    public enum TLSVersion: String, Sendable, Equatable, Comparable, CaseIterable {
        case tls10 = "TLS10"
        case tls11 = "TLS11"
        case tls12 = "TLS12"
        case tls13 = "TLS13"

        public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// A cipher suite by Go's name (`tls.CipherSuites()`), with its IANA code point.
    public struct CipherSuite: Sendable, Equatable {
        public var name: String
        public var value: UInt16

        public init(name: String, value: UInt16) {
            self.name = name
            self.value = value
        }
        /// TLS 1.3 suites are always on; only TLS 1.2 suites can be chosen.
        public var isTLS13: Bool { self.value >> 8 == 0x13 }

        /// Go's secure suites (`tls.CipherSuites()`), the names exporter-toolkit accepts.
        public static let known: [CipherSuite] = [
            ("TLS_RSA_WITH_AES_128_CBC_SHA", 0x002F), ("TLS_RSA_WITH_AES_256_CBC_SHA", 0x0035),
            ("TLS_RSA_WITH_AES_128_GCM_SHA256", 0x009C), ("TLS_RSA_WITH_AES_256_GCM_SHA384", 0x009D),
            ("TLS_AES_128_GCM_SHA256", 0x1301), ("TLS_AES_256_GCM_SHA384", 0x1302), ("TLS_CHACHA20_POLY1305_SHA256", 0x1303),
            ("TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", 0xC009), ("TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", 0xC00A),
            ("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", 0xC013), ("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", 0xC014),
            ("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", 0xC02B), ("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", 0xC02C),
            ("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", 0xC02F), ("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", 0xC030),
            ("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", 0xCCA8), ("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", 0xCCA9),
        ].map { CipherSuite(name: $0.0, value: $0.1) }
    }

    /// `curve_preferences`, named as Go's `tls.CurveID`.
    public enum Curve: String, Sendable, Equatable, CaseIterable {
        case p256 = "CurveP256"
        case p384 = "CurveP384"
        case p521 = "CurveP521"
        case x25519 = "X25519"

        /// The TLS named-group code point.
        public var value: UInt16 {
            switch self {
            case .p256: 0x17
            case .p384: 0x18
            case .p521: 0x19
            case .x25519: 0x1D
            }
        }
    }

    /// The headers `http_server_config.headers` may set, and the values allowed where
    /// exporter-toolkit fixes them (empty: any value).
    static let configurableHeaders: [(name: String, values: [String])] = [
        ("Strict-Transport-Security", []),
        ("X-Content-Type-Options", ["nosniff"]),
        ("X-Frame-Options", ["deny", "sameorigin"]),
        ("X-XSS-Protection", []),
        ("Content-Security-Policy", []),
    ]

    /// Why a web configuration was refused: the line (when known) and what is wrong.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int?
        public var message: String

        public init(line: Int?, _ message: String) {
            self.line = line
            self.message = message
        }

        public var description: String { self.line.map { "line \($0): \(self.message)" } ?? self.message }
    }
}
