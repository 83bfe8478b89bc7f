import Foundation
import SyncmonWeb
import Testing

/// The web configuration parser (docs/configuration.md, "Web configuration"): exporter-toolkit's
/// format, its defaults, and every refusal with its message.
@Suite("Web configuration parsing")
struct WebConfigurationTests {
    static let hash = "$2y$10$90X8b7GcOF4u.VVPYBl8nuMkYu5N/A..KALl43NnYn/M3oNxyzKT2"

    typealias Config = WebConfiguration

    static func tls(_ certificate: Config.PEMSource, _ key: Config.PEMSource, _ change: (inout Config.TLSServer) -> Void = { _ in }) -> Config.TLSServer {
        var tls = Config.TLSServer(certificate: certificate, key: key)
        change(&tls)
        return tls
    }

    struct Good: CustomTestStringConvertible, Sendable {
        var name: String
        var yaml: String
        var expected: WebConfiguration
        var testDescription: String { self.name }
    }

    static let good: [Good] = [
        Good(name: "empty file", yaml: "", expected: Config()),
        Good(name: "only a comment", yaml: "# nothing yet\n", expected: Config()),
        Good(name: "empty sections", yaml: "tls_server_config:\nbasic_auth_users:\nhttp_server_config:\n", expected: Config()),
        Good(
            name: "node_exporter's example: TLS and one user",
            yaml: """
                tls_server_config:
                  cert_file: server.crt
                  key_file: server.key
                basic_auth_users:
                  alice: \(hash)

                """,
            expected: Config(tls: tls(.file("/etc/syncmon/server.crt"), .file("/etc/syncmon/server.key")), users: ["alice": hash])
        ),
        Good(
            name: "absolute paths stay",
            yaml: "tls_server_config:\n  cert_file: /srv/tls/c.pem\n  key_file: ../k.pem\n",
            expected: Config(tls: tls(.file("/srv/tls/c.pem"), .file("/etc/syncmon/../k.pem")))
        ),
        Good(
            name: "mutual TLS, TLS 1.3 only, chosen suites and curves",
            yaml: """
                tls_server_config:
                  cert_file: "s.crt"
                  key_file: 's.key'
                  client_auth_type: RequireAndVerifyClientCert
                  client_ca_file: clients/ca.pem
                  min_version: TLS13
                  max_version: TLS13
                  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256]
                  curve_preferences:
                    - X25519
                    - CurveP256
                  prefer_server_cipher_suites: false

                """,
            expected: Config(
                tls: tls(.file("/etc/syncmon/s.crt"), .file("/etc/syncmon/s.key")) {
                    $0.clientAuth = .requireAndVerify
                    $0.clientCA = .file("/etc/syncmon/clients/ca.pem")
                    $0.minimumVersion = .tls13
                    $0.maximumVersion = .tls13
                    $0.cipherSuites = [
                        Config.CipherSuite(name: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", value: 0xC02F),
                        Config.CipherSuite(name: "TLS_AES_128_GCM_SHA256", value: 0x1301),
                    ]
                    $0.curves = [.x25519, .p256]
                }
            )
        ),
        Good(
            name: "the old spelling RequireClientCert",
            yaml: "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireClientCert\n",
            expected: Config(tls: tls(.file("/etc/syncmon/a"), .file("/etc/syncmon/b")) { $0.clientAuth = .requireAny })
        ),
        Good(
            name: "VerifyClientCertIfGiven with a CA",
            yaml: "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca\n",
            expected: Config(
                tls: tls(.file("/etc/syncmon/a"), .file("/etc/syncmon/b")) {
                    $0.clientAuth = .verifyIfGiven
                    $0.clientCA = .file("/etc/syncmon/ca")
                }
            )
        ),
        Good(
            name: "inline PEM",
            yaml: "tls_server_config:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n    AAAA\n    -----END CERTIFICATE-----\n  key_file: k\n",
            expected: Config(tls: tls(.inline("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), .file("/etc/syncmon/k")))
        ),
        Good(
            name: "min_version alone does not turn TLS on (exporter-toolkit)",
            yaml: "tls_server_config:\n  min_version: TLS13\n",
            expected: Config()
        ),
        Good(
            name: "basic auth without TLS, every bcrypt prefix",
            yaml: """
                basic_auth_users:
                  alice: \(hash)
                  carol: $2b$10$abcdefghijklmnopqrstuu23JPZtHcGhwXSF41f93o/7vBdDut3Xu
                  "dave": "$2a$05$ABCDEFGHIJKLMNOPQRSTUu.kFjzHGfFNnYbrBycMawbuE4GU5Ca4e"

                """,
            expected: Config(users: [
                "alice": hash,
                "carol": "$2b$10$abcdefghijklmnopqrstuu23JPZtHcGhwXSF41f93o/7vBdDut3Xu",
                "dave": "$2a$05$ABCDEFGHIJKLMNOPQRSTUu.kFjzHGfFNnYbrBycMawbuE4GU5Ca4e",
            ])
        ),
        Good(
            name: "headers; http2 accepted; blank header unset",
            yaml: """
                http_server_config:
                  http2: true
                  headers:
                    X-Frame-Options: deny
                    X-Content-Type-Options: nosniff
                    Strict-Transport-Security: max-age=31536000
                    Content-Security-Policy: ""

                """,
            expected: Config(headers: ["X-Frame-Options": "deny", "X-Content-Type-Options": "nosniff", "Strict-Transport-Security": "max-age=31536000"])
        ),
    ]

    @Test("good files", arguments: good)
    func parsesGood(_ item: Good) throws {
        #expect(try WebConfiguration.parse(item.yaml, directory: "/etc/syncmon") == item.expected)
    }

    typealias Bad = RefusedText

    static let bad: [Bad] = [
        // An unclosed bracket is named where it opens, not where the text ends.
        Bad(
            name: "YAML syntax", yaml: "tls_server_config:\n  cert_file: [a\n\n\n", line: 2, message: "not valid YAML: the [ opened on this line is not closed"),
        // Line numbers count line breaks as YAML does: a lone CR is one (found by FuzzWebConfig,
        // whose line count had not taken it for one).
        Bad(name: "a lone CR breaks the line", yaml: "tls_server_config:\r  cert_file: [a\n", line: 2, message: "not valid YAML"),
        // A refusal at the end of a text with no final line break names its last line (found by
        // FuzzWebConfig: the YAML library used before named the line after it).
        Bad(name: "no final line break", yaml: "tls_server_config:\n  cert_file: 'a", line: 2, message: "not valid YAML"),
        Bad(name: "tab indentation", yaml: "tls_server_config:\n\tcert_file: a\n", line: 2, message: "not valid YAML"),
        Bad(name: "not a mapping", yaml: "- a\n- b\n", line: 1, message: "expected a mapping of tls_server_config"),
        Bad(
            name: "unknown top-level key", yaml: "tls_server_config:\nbasic_auth_user:\n  a: b\n", line: 2,
            message: "unknown key basic_auth_user (did you mean basic_auth_users?)"),
        Bad(name: "an unrelated top-level key", yaml: "listen: 1\n", line: 1, message: "unknown key listen"),
        Bad(
            name: "unknown TLS key", yaml: "tls_server_config:\n  cert_file: a\n  key_file: b\n  certfile: c\n", line: 4,
            message: "unknown key certfile in tls_server_config (did you mean cert_file?)"),
        Bad(
            name: "unknown http key", yaml: "http_server_config:\n  http3: true\n", line: 2,
            message: "unknown key http3 in http_server_config (did you mean http2?)"),
        Bad(name: "duplicate key", yaml: "basic_auth_users:\n  a: \(hash)\n  a: \(hash)\n", line: 3, message: "duplicate key a"),
        Bad(name: "missing cert", yaml: "tls_server_config:\n  key_file: b\n", line: 1, message: "missing one of cert or cert_file"),
        Bad(name: "missing key", yaml: "tls_server_config:\n  cert_file: a\n", line: 1, message: "missing one of key or key_file"),
        Bad(
            name: "client auth alone", yaml: "tls_server_config:\n  client_auth_type: RequireAndVerifyClientCert\n", line: 1,
            message: "missing one of cert or cert_file"),
        Bad(
            name: "cert and cert_file",
            yaml: "tls_server_config:\n  cert_file: a\n  cert: b\n  key_file: c\n",
            line: 3,
            message: "set only one of cert and cert_file"
        ),
        Bad(
            name: "bad client_auth_type",
            yaml: "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAndVerify\n",
            line: 1,
            message: "invalid client_auth_type RequireAndVerify (expected NoClientCert"
        ),
        Bad(
            name: "client CA without a policy",
            yaml: "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: ca\n",
            line: 1,
            message: "a client CA is set but client_auth_type does not verify client certificates"
        ),
        Bad(name: "bad min_version", yaml: "tls_server_config:\n  min_version: TLS1.2\n", line: 2, message: "min_version: unknown TLS version TLS1.2"),
        Bad(
            name: "min above max",
            yaml: "tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n  max_version: TLS12\n",
            line: 1,
            message: "min_version TLS13 is above max_version TLS12"
        ),
        Bad(
            name: "invented cipher", yaml: "tls_server_config:\n  cipher_suites:\n    - TLS_INVENTED_CIPHER\n", line: 3,
            message: "cipher_suites: unknown cipher: TLS_INVENTED_CIPHER"),
        Bad(name: "cipher_suites not a list", yaml: "tls_server_config:\n  cipher_suites: {a: b}\n", line: 2, message: "cipher_suites: expected a list"),
        Bad(
            name: "invented curve", yaml: "tls_server_config:\n  curve_preferences: [CurveP999]\n", line: 2,
            message: "curve_preferences: unknown curve: CurveP999"),
        Bad(
            name: "client_allowed_sans", yaml: "tls_server_config:\n  client_allowed_sans: [a]\n", line: 2,
            message: "client_allowed_sans is not supported by syncmon"),
        Bad(name: "rate_limit", yaml: "rate_limit:\n  burst: 3\n", line: 1, message: "rate_limit is not supported by syncmon"),
        Bad(name: "http2 not a bool", yaml: "http_server_config:\n  http2: maybe\n", line: 2, message: "http2: expected true or false"),
        Bad(
            name: "header not allowed", yaml: "http_server_config:\n  headers:\n    Server: syncmon\n", line: 3,
            message: "HTTP header \"Server\" can not be configured"),
        Bad(
            name: "header value not allowed",
            yaml: "http_server_config:\n  headers:\n    X-Frame-Options: allow\n",
            line: 3,
            message: "invalid value for X-Frame-Options: expected \"deny\" or \"sameorigin\", got \"allow\""
        ),
        Bad(
            name: "plaintext password", yaml: "basic_auth_users:\n  alice: hunter2\n", line: 2,
            message: "basic_auth_users: the hash of alice is not a bcrypt hash"),
        Bad(name: "empty hash", yaml: "basic_auth_users:\n  alice:\n", line: 2, message: "the hash of alice is not a bcrypt hash"),
        Bad(name: "md5 htpasswd hash", yaml: "basic_auth_users:\n  alice: $apr1$x8T0g2Nb$DeFzGgPOVTjeG5bFUJt0G/\n", line: 2, message: "not a bcrypt hash"),
        Bad(
            name: "bcrypt cost out of range", yaml: "basic_auth_users:\n  alice: $2y$03$90X8b7GcOF4u.VVPYBl8nuMkYu5N/A..KALl43NnYn/M3oNxyzKT2\n", line: 2,
            message: "not a bcrypt hash"),
        Bad(
            name: "truncated hash", yaml: "basic_auth_users:\n  alice: $2y$10$90X8b7GcOF4u.VVPYBl8nuMkYu5N/A..KALl43NnYn/M3oNxyz\n", line: 2,
            message: "not a bcrypt hash"),
        Bad(name: "users not a mapping", yaml: "basic_auth_users:\n  - alice\n", line: 2, message: "basic_auth_users: expected a mapping"),
    ]

    @Test("bad files are refused with the line and the reason", arguments: bad)
    func refusesBad(_ item: Bad) {
        item.expectRefused { (text) throws(WebConfiguration.ParseError) in try WebConfiguration.parse(text, directory: "/etc/syncmon") }
    }

    @Test("a refusal is the same every time the same text is parsed", arguments: bad)
    func refusesAlike(_ item: Bad) {
        let errors = (0..<8).map { _ in
            Result { () throws(WebConfiguration.ParseError) in try WebConfiguration.parse(item.yaml, directory: "/etc/syncmon") }
        }
        guard case .failure(let first) = errors[0] else { return }
        for case .failure(let error) in errors { #expect(error == first) }
    }

    /// FuzzWebConfig's input (Tests/Fixtures/webconfig/duplicated-mapping-key.yml): a complex
    /// key (`? …`) twice beside a duplicated `tls_server_config`. The YAML library used before
    /// named line 2 or line 3 from one parse to the next; the reader refuses the first complex key
    /// on its line, every time.
    @Test("a complex key among duplicated keys: the same refusal every time, with its line")
    func duplicatedMappingKey() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/webconfig/duplicated-mapping-key.yml").path
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let errors = (0..<32).compactMap { _ -> WebConfiguration.ParseError? in
            let result = Result { () throws(WebConfiguration.ParseError) in try WebConfiguration.parse(text, directory: "/etc/syncmon") }
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(errors.count == 32)
        #expect(errors.allSatisfy { $0 == errors.first })
        #expect(errors.first == WebConfiguration.ParseError(line: 3, "not valid YAML: complex keys (?) are not supported"), "\(errors)")
    }

    @Test("relative paths resolve against the file's directory")
    func relativePaths() {
        #expect(WebConfiguration.resolve("a.pem", in: "/etc/syncmon") == "/etc/syncmon/a.pem")
        #expect(WebConfiguration.resolve("a.pem", in: "/") == "/a.pem")
        #expect(WebConfiguration.resolve("a.pem", in: ".") == "./a.pem")
        #expect(WebConfiguration.resolve("/abs/a.pem", in: "/etc") == "/abs/a.pem")
    }
}
