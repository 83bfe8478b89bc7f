import Foundation
import SyncmonSockets
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--web.config.file` on the real binary (docs/configuration.md, "Web configuration"): HTTPS,
/// basic auth, client certificates, `syncmon status` over HTTPS, certificate rotation on SIGHUP,
/// refusals at start, and a real Prometheus scraping it. Certificates are made by openssl for
/// each test; the password hashes are the fixtures of ``BasicAuthTests``.
@Suite("Web configuration end to end", .serialized)
struct WebConfigEndToEndTests {
    static let aliceHash = "$2y$10$90X8b7GcOF4u.VVPYBl8nuMkYu5N/A..KALl43NnYn/M3oNxyzKT2"  // "s3cret pass"
    static let bobHash = "$2y$04$0TfVBVStImzfxIsqQ3yd3uX497FMgIylLDzQQsXViXz474NqxMv/u"  // "hunter2"

    /// A CA, two server certificates it signed for 127.0.0.1 (CN syncmon-1 and syncmon-2), a
    /// client certificate it signed, and a client certificate of another CA.
    struct Certificates {
        let directory: String
        var ca: String { self.directory + "/ca.pem" }

        init(in directory: String) async throws {
            self.directory = directory
            try await Self.openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=syncmon test CA", "-keyout", directory + "/ca.key", "-out", directory + "/ca.pem",
            ])
            try await Self.openssl([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=other CA", "-keyout", directory + "/other.key", "-out", directory + "/other.pem",
            ])
            try "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n".write(
                toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
            try "extendedKeyUsage=clientAuth\n".write(toFile: directory + "/client.ext", atomically: true, encoding: .utf8)
            for name in ["syncmon-1", "syncmon-2"] { try await self.sign(name, ext: "server.ext", ca: "ca") }
            try await self.sign("scraper", ext: "client.ext", ca: "ca")
            try await self.sign("stranger", ext: "client.ext", ca: "other")
        }

        private func sign(_ name: String, ext: String, ca: String) async throws {
            let base = self.directory + "/" + name
            try await Self.openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=\(name)",
                "-keyout", base + ".key", "-out", base + ".csr",
            ])
            try await Self.openssl([
                "x509", "-req", "-in", base + ".csr", "-CA", self.directory + "/\(ca).pem", "-CAkey", self.directory + "/\(ca).key",
                "-set_serial", String(Int.random(in: 1...Int(Int32.max))), "-days", "2", "-extfile", self.directory + "/" + ext, "-out", base + ".crt",
            ])
        }

        static func openssl(_ arguments: [String]) async throws {
            let result = try await ExternalCommand.run("/usr/bin/openssl", arguments)
            guard result.status == 0 else { throw TestSupportError("openssl \(arguments.joined(separator: " ")): \(result.combined)") }
        }

        /// Makes `name`'s certificate and key the server's (`server.crt`, `server.key`).
        func install(_ name: String) throws {
            for suffix in ["crt", "key"] {
                let data = try Data(contentsOf: URL(fileURLWithPath: self.directory + "/\(name).\(suffix)"))
                try data.write(to: URL(fileURLWithPath: self.directory + "/server.\(suffix)"), options: .atomic)
            }
        }
    }

    /// What curl got: the status (0 when no HTTP answer came) and curl's exit code and stderr.
    struct Fetched {
        var status: Int
        var exitCode: Int32
        var headers: String
        var body: String
        var errors: String
    }

    static func curl(_ url: String, ca: String?, user: String? = nil, clientCertificate: String? = nil) async throws -> Fetched {
        let directory = try TemporaryDirectory(prefix: "smc")
        defer { directory.remove() }
        var arguments = ["-sS", "--max-time", "10", "-o", directory.path("body"), "-D", directory.path("headers"), "-w", "%{http_code}"]
        if let ca { arguments += ["--cacert", ca] }
        if let user { arguments += ["-u", user] }
        if let clientCertificate { arguments += ["--cert", clientCertificate + ".crt", "--key", clientCertificate + ".key"] }
        let result = try await ExternalCommand.run(ExternalCommand.find("curl") ?? "/usr/bin/curl", arguments + [url])
        return Fetched(
            status: Int(result.output) ?? 0,
            exitCode: result.status,
            headers: (try? String(contentsOfFile: directory.path("headers"), encoding: .utf8)) ?? "",
            body: (try? String(contentsOfFile: directory.path("body"), encoding: .utf8)) ?? "",
            errors: result.errors
        )
    }

    /// The subject of the certificate served on `port`.
    static func servedSubject(port: Int) async throws -> String {
        let result = try await ExternalCommand.run(
            "/bin/sh",
            ["-c", "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -subject"]
        )
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func reload(_ daemon: DaemonProcess) async -> Bool {
        let before = daemon.notify.datagrams.count
        daemon.signal(SIGHUP)
        return await Polling.until {
            let since = Array(daemon.notify.datagrams.dropFirst(before))
            guard let reloading = since.firstIndex(where: { $0.contains("RELOADING=1") }) else { return false }
            return since[(reloading + 1)...].contains { $0.contains("READY=1") }
        }
    }

    static func webConfig(users: [String: String] = ["alice": aliceHash], clientAuth: String? = nil) -> String {
        var text = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
        if let clientAuth { text += "  client_auth_type: \(clientAuth)\n  client_ca_file: ca.pem\n" }
        if !users.isEmpty {
            text += "basic_auth_users:\n"
            for (user, hash) in users.sorted(by: { $0.key < $1.key }) { text += "  \(user): \(hash)\n" }
        }
        text += "http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff\n"
        return text
    }

    /// A CA and a server certificate for `syncmon-1` in `directory`, and `webConfig` written
    /// to its web.yml, whose path comes back with the certificates.
    static func prepare(_ directory: TemporaryDirectory, webConfig: String) async throws -> (Certificates, String) {
        let certificates = try await Certificates(in: directory.path)
        try certificates.install("syncmon-1")
        let web = directory.path("web.yml")
        try webConfig.write(toFile: web, atomically: true, encoding: .utf8)
        return (certificates, web)
    }

    @Test("HTTPS with basic auth: every path asks, the right password passes, plain HTTP is refused")
    func httpsWithBasicAuth() async throws {
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let (certificates, web) = try await Self.prepare(directory, webConfig: Self.webConfig())
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--web.config.file", web])
        let base = "https://127.0.0.1:\(daemon.port)"

        let ok = try await Self.curl(base + "/metrics", ca: certificates.ca, user: "alice:s3cret pass")
        #expect(ok.status == 200, "\(ok)")
        #expect(ok.body.contains("syncmon_build_info"))
        #expect(ok.headers.lowercased().contains("x-content-type-options: nosniff"), "\(ok.headers)")
        // The exposition over TLS still passes promtool.
        if let promtool = ExternalCommand.find("promtool") {
            let lint = try await ExternalCommand.run(promtool, ["check", "metrics"], input: Array(ok.body.utf8))
            #expect(lint.status == 0, "\(lint.combined)")
        } else {
            Issue.record("promtool is not installed (scripts/install-deps.sh --test)")
        }

        for path in ["/", "/metrics", "/healthz", "/api/v1/status", "/nope"] {
            let anonymous = try await Self.curl(base + path, ca: certificates.ca)
            #expect(anonymous.status == 401, "\(path): \(anonymous)")
            #expect(anonymous.headers.lowercased().contains("www-authenticate: basic"), "\(anonymous.headers)")
        }
        for user in ["alice:wrong", "alice:", "mallory:s3cret pass", "alice:s3cret pass "] {
            let refused = try await Self.curl(base + "/healthz", ca: certificates.ca, user: user)
            #expect(refused.status == 401, "\(user): \(refused)")
        }
        // The right password again (now from the cache) still passes.
        await #expect(try Self.curl(base + "/healthz", ca: certificates.ca, user: "alice:s3cret pass").status == 200)

        // Without the CA the certificate is not trusted.
        let untrusted = try await Self.curl(base + "/healthz", ca: nil, user: "alice:s3cret pass")
        #expect(untrusted.status == 0 && untrusted.exitCode != 0, "\(untrusted)")

        // Plain HTTP to the TLS port: Go's answer, never the metrics.
        let plain = try BlockingHTTPClient.raw(port: daemon.port, request: Array("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(plain.status == 400)
        #expect(plain.text.contains("Client sent an HTTP request to an HTTPS server."))
        #expect(!plain.text.contains("syncmon_"))
        #expect(daemon.isRunning)

        // syncmon status over HTTPS with a password.
        try daemon.send(lines: [EventLine.make("notes", "willFetchChanges")])
        let environment = ["SYNCMON_PASSWORD": "s3cret pass", "PATH": "/usr/bin:/bin"]
        let arguments = ["status", "--url", base, "--ca-file", certificates.ca, "--user", "alice", "--json"]
        let status = await Polling.value {
            let result = try? await SyncmonProcess.run(arguments, environment: environment)
            return result?.standardOutput.contains("\"notes\"") == true ? result : nil
        }
        #expect(status?.status == 0, "\(String(describing: status))")
        let wrong = try await SyncmonProcess.run(
            ["status", "--url", base, "--ca-file", certificates.ca, "--user", "alice"],
            environment: ["SYNCMON_PASSWORD": "nope"]
        )
        #expect(wrong.status == 3)
        #expect(wrong.standardError.contains("unauthorized: check --user and SYNCMON_PASSWORD"), "\(wrong.standardError)")
        let noPassword = try await SyncmonProcess.run(["status", "--url", base, "--ca-file", certificates.ca], environment: [:])
        #expect(noPassword.status == 3)
        #expect(noPassword.standardError.contains("pass --user and set SYNCMON_PASSWORD"), "\(noPassword.standardError)")
        let noCA = try await SyncmonProcess.run(["status", "--url", base, "--user", "alice"], environment: environment)
        #expect(noCA.status == 3)
        #expect(noCA.standardError.contains("certificate is not trusted"), "\(noCA.standardError)")
        let plainStatus = try await SyncmonProcess.run(["status", "--url", daemon.url], environment: environment)
        #expect(plainStatus.status == 3)
        #expect(plainStatus.standardError.contains("400"), "\(plainStatus.standardError)")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("client certificates: each client_auth_type admits the certificates it should")
    func clientCertificates() async throws {
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let (certificates, web) = try await Self.prepare(directory, webConfig: Self.webConfig(users: [:], clientAuth: "RequireAndVerifyClientCert"))
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--web.config.file", web])
        let url = "https://127.0.0.1:\(daemon.port)/healthz"

        let trusted = try await Self.curl(url, ca: certificates.ca, clientCertificate: directory.path("scraper"))
        #expect(trusted.status == 200, "\(trusted)")
        let none = try await Self.curl(url, ca: certificates.ca)
        #expect(none.status == 0 && none.exitCode != 0, "\(none)")
        let stranger = try await Self.curl(url, ca: certificates.ca, clientCertificate: directory.path("stranger"))
        #expect(stranger.status == 0 && stranger.exitCode != 0, "\(stranger)")
        #expect(daemon.isRunning)

        // syncmon status with the scraper's certificate gets the document (no engines: exit 3,
        // UNKNOWN); without one it names what the daemon asks for.
        let base = "https://127.0.0.1:\(daemon.port)"
        let scraper = directory.path("scraper")
        let withCertificate = try await SyncmonProcess.run(
            ["status", "--url", base, "--ca-file", certificates.ca, "--cert-file", scraper + ".crt", "--key-file", scraper + ".key", "--json"])
        #expect(withCertificate.standardOutput.contains("\"engines\""), "\(withCertificate)")
        #expect(withCertificate.standardError.isEmpty, "\(withCertificate.standardError)")
        let withoutCertificate = try await SyncmonProcess.run(["status", "--url", base, "--ca-file", certificates.ca])
        #expect(withoutCertificate.status == 3)
        #expect(withoutCertificate.standardError.contains("--cert-file"), "\(withoutCertificate.standardError)")
        let keyOnly = try await SyncmonProcess.run(["status", "--url", base, "--key-file", scraper + ".key"])
        #expect(keyOnly.status == 64)
        #expect(keyOnly.standardError.contains("--cert-file and --key-file go together"), "\(keyOnly.standardError)")

        // The other policies, each applied by a reload: (policy, none, scraper's, stranger's).
        let policies: [(String, Bool, Bool, Bool)] = [
            ("VerifyClientCertIfGiven", true, true, false),
            ("RequireAnyClientCert", false, true, true),
            ("RequireAndVerifyClientCert", false, true, false),
        ]
        for (policy, none, scraper, stranger) in policies {
            try Self.webConfig(users: [:], clientAuth: policy).write(toFile: web, atomically: true, encoding: .utf8)
            #expect(await Self.reload(daemon))
            await #expect((try Self.curl(url, ca: certificates.ca).status == 200) == none, "\(policy) without a certificate")
            await #expect((try Self.curl(url, ca: certificates.ca, clientCertificate: directory.path("scraper")).status == 200) == scraper, "\(policy) scraper")
            await #expect(
                (try Self.curl(url, ca: certificates.ca, clientCertificate: directory.path("stranger")).status == 200) == stranger, "\(policy) stranger")
        }
        #expect(await daemon.stop() == .exited(0))
    }

    @Test("SIGHUP: a rotated certificate and a new user serve at once; a broken file keeps both")
    func rotation() async throws {
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let (certificates, web) = try await Self.prepare(directory, webConfig: Self.webConfig())
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--web.config.file", web])
        let url = "https://127.0.0.1:\(daemon.port)/healthz"
        await #expect(try Self.servedSubject(port: daemon.port).contains("CN = syncmon-1"))
        await #expect(try Self.curl(url, ca: certificates.ca, user: "bob:hunter2").status == 401)

        try certificates.install("syncmon-2")
        try Self.webConfig(users: ["alice": Self.aliceHash, "bob": Self.bobHash]).write(toFile: web, atomically: true, encoding: .utf8)
        #expect(await Self.reload(daemon))
        await #expect(try Self.servedSubject(port: daemon.port).contains("CN = syncmon-2"))
        await #expect(try Self.curl(url, ca: certificates.ca, user: "bob:hunter2").status == 200)

        // A broken file: the reload fails, naming the file and the line; the running settings stay.
        try (Self.webConfig() + "basic_auth_user:\n").write(toFile: web, atomically: true, encoding: .utf8)
        #expect(await Self.reload(daemon))
        #expect(await Polling.until { daemon.standardError.contains("configuration reload failed") }, "\(daemon.standardError)")
        #expect(daemon.standardError.contains("web config \(web): line "), "\(daemon.standardError)")
        #expect(daemon.standardError.contains("unknown key basic_auth_user"))
        await #expect(try Self.servedSubject(port: daemon.port).contains("CN = syncmon-2"))
        await #expect(try Self.curl(url, ca: certificates.ca, user: "bob:hunter2").status == 200)
        // A certificate file that vanished: refused the same way.
        try Self.webConfig().write(toFile: web, atomically: true, encoding: .utf8)
        unlink(directory.path("server.key"))
        #expect(await Self.reload(daemon))
        #expect(await Polling.until { daemon.standardError.contains("cannot read key_file") }, "\(daemon.standardError)")
        await #expect(try Self.curl(url, ca: certificates.ca, user: "bob:hunter2").status == 200)
        #expect(daemon.isRunning)
        #expect(await daemon.stop() == .exited(0))
    }

    struct BadStart: CustomTestStringConvertible, Sendable {
        var name: String
        var yaml: String
        var message: String
        var testDescription: String { self.name }
    }

    static let badStarts: [BadStart] = [
        BadStart(name: "YAML syntax", yaml: "tls_server_config: [\n", message: "not valid YAML"),
        BadStart(
            name: "unknown key", yaml: "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  ca_file: x\n",
            message: "line 4: unknown key ca_file"),
        BadStart(
            name: "missing certificate file", yaml: "tls_server_config:\n  cert_file: absent.crt\n  key_file: server.key\n", message: "cannot read cert_file"),
        BadStart(name: "not a certificate", yaml: "tls_server_config:\n  cert_file: web.yml\n  key_file: server.key\n", message: "no PEM certificate"),
        BadStart(
            name: "key of another certificate", yaml: "tls_server_config:\n  cert_file: server.crt\n  key_file: ca.key\n", message: "cannot be used together"),
        BadStart(name: "plaintext password", yaml: "basic_auth_users:\n  alice: s3cret\n", message: "not a bcrypt hash"),
        BadStart(
            name: "bad client_auth_type", yaml: "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: Yes\n",
            message: "invalid client_auth_type"),
    ]

    @Test("a bad web configuration stops the start with exit 78, naming the file", arguments: badStarts)
    func badAtStart(_ item: BadStart) async throws {
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let (_, web) = try await Self.prepare(directory, webConfig: item.yaml)
        let result = try await SyncmonProcess.run([
            "daemon", "--web.config.file", web, "--listen", "127.0.0.1:\(try FreePort.next())", "--events-socket", directory.path("e.sock"),
            "--state-dir", directory.path("state"), "--log-target", "stderr", "--host-network", "off",
        ])
        #expect(result.status == 78, "\(result.standardError)")
        #expect(result.standardError.contains("web config \(web): "), "\(result.standardError)")
        #expect(result.standardError.contains(item.message), "\(result.standardError)")
    }

    @Test("web-config-file in the configuration file; a missing web config exits 78")
    func configFileKey() async throws {
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let (certificates, web) = try await Self.prepare(directory, webConfig: Self.webConfig())
        let config = directory.path("syncmon.conf")
        try "web-config-file = \(web)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--config", config])
        await #expect(try Self.curl("https://127.0.0.1:\(daemon.port)/healthz", ca: certificates.ca, user: "alice:s3cret pass").status == 200)
        #expect(await daemon.stop() == .exited(0))

        let missing = try await SyncmonProcess.run([
            "daemon", "--web.config.file", directory.path("absent.yml"), "--events-socket", directory.path("e.sock"),
            "--state-dir", directory.path("state"), "--log-target", "stderr",
        ])
        #expect(missing.status == 78)
        #expect(
            missing.standardError.contains("web config \(directory.path("absent.yml")): cannot read it: No such file or directory"), "\(missing.standardError)")
    }

    @Test("a real Prometheus scrapes over TLS with basic_auth and tls_config.ca_file: up is 1")
    func prometheusScrapes() async throws {
        guard let prometheus = ExternalCommand.find("prometheus") else {
            Issue.record("prometheus is not installed (scripts/install-deps.sh --test)")
            return
        }
        let directory = try TemporaryDirectory(prefix: "smw")
        defer { directory.remove() }
        let (certificates, web) = try await Self.prepare(directory, webConfig: Self.webConfig())
        let daemon = try await DaemonProcess.start(in: directory.path, arguments: ["--web.config.file", web])
        try "s3cret pass".write(toFile: directory.path("password"), atomically: true, encoding: .utf8)
        let configuration = """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: syncmon
                scheme: https
                basic_auth:
                  username: alice
                  password_file: \(directory.path("password"))
                tls_config:
                  ca_file: \(certificates.ca)
                static_configs:
                  - targets: ['127.0.0.1:\(daemon.port)']
              - job_name: syncmon-no-password
                scheme: https
                tls_config:
                  ca_file: \(certificates.ca)
                static_configs:
                  - targets: ['127.0.0.1:\(daemon.port)']

            """
        try configuration.write(toFile: directory.path("prometheus.yml"), atomically: true, encoding: .utf8)
        let port = try FreePort.next()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: prometheus)
        process.arguments = [
            "--config.file=\(directory.path("prometheus.yml"))", "--storage.tsdb.path=\(directory.path("tsdb"))",
            "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
        ]
        _ = FileManager.default.createFile(atPath: directory.path("prometheus.log"), contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.path("prometheus.log")))
        defer { try? log.close() }
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        func up(_ job: String) -> String? {
            guard let response = try? BlockingHTTPClient.get(port: port, path: "/api/v1/query?query=up%7Bjob%3D%22\(job)%22%7D"),
                response.status == 200, let object = try? response.jsonObject(),
                let data = object["data"] as? [String: Any], let result = (data["result"] as? [[String: Any]])?.first,
                let value = result["value"] as? [Any]
            else { return nil }
            return value.last as? String
        }
        let scraped = await Polling.until(timeout: .seconds(30)) { up("syncmon") == "1" && up("syncmon-no-password") == "0" }
        let prometheusLog = (try? String(contentsOfFile: directory.path("prometheus.log"), encoding: .utf8)) ?? ""
        #expect(scraped, "up: \(up("syncmon") ?? "none") / \(up("syncmon-no-password") ?? "none"); log: \(prometheusLog)")
        #expect(await daemon.stop() == .exited(0))
    }
}
