import NIOCore
import NIOSSL
import SyncmonLock

#if canImport(Glibc)
import Glibc
#endif

/// A web configuration made ready to serve: the file read and parsed, its certificates and key
/// loaded into a TLS context, its users into a ``BasicAuthenticator``.
///
/// Built whole or not at all, so a file that is wrong anywhere (YAML, an unknown key, a missing
/// or unreadable certificate, a key that does not match it, a malformed hash) is refused at
/// start (exit 78) and on SIGHUP leaves the running one in place (docs/operations.md).
public final class WebSecurity: Sendable, Equatable {
    /// Why a web configuration cannot be used; names the file.
    public struct LoadError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var message: String
        public var description: String { "web config \(self.path): \(self.message)" }
    }

    /// The file it was read from.
    public let path: String
    public let configuration: WebConfiguration
    /// The TLS context new connections use; nil serves plain HTTP.
    public let tlsContext: NIOSSLContext?
    /// nil when `basic_auth_users` is empty.
    public let authenticator: BasicAuthenticator?
    /// `http_server_config.headers`, sorted by name.
    public let headers: [(String, String)]

    /// The same loaded configuration: a reload always loads anew, so two loads are different.
    public static func == (lhs: WebSecurity, rhs: WebSecurity) -> Bool { lhs === rhs }

    /// Reads and loads `path`. Relative paths in it resolve against its directory.
    public static func load(path: String) throws(LoadError) -> WebSecurity {
        let bytes: [UInt8]
        do {
            bytes = try Self.read(path)
        } catch {
            throw LoadError(path: path, message: "cannot read it: \(error.reason)")
        }
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let configuration: WebConfiguration
        do {
            configuration = try WebConfiguration.parse(String(decoding: bytes, as: UTF8.self), directory: directory)
        } catch {
            throw LoadError(path: path, message: error.description)
        }
        return try WebSecurity(configuration: configuration, path: path)
    }

    /// Loads what `configuration` names (certificates, key, client CAs).
    public init(configuration: WebConfiguration, path: String) throws(LoadError) {
        self.path = path
        self.configuration = configuration
        self.authenticator = configuration.users.isEmpty ? nil : BasicAuthenticator(users: configuration.users)
        self.headers = configuration.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        do {
            self.tlsContext = try configuration.tls.map(Self.makeContext)
        } catch {
            throw LoadError(path: path, message: error.reason)
        }
    }

    /// The server handler for one new connection, verifying client certificates as
    /// `client_auth_type` says.
    package func makeServerHandler() -> NIOSSLServerHandler? {
        guard let context = self.tlsContext else { return nil }
        if self.configuration.tls?.clientAuth == .requireAny {
            // A certificate must be presented; which CA signed it is not asked.
            return NIOSSLServerHandler(context: context) { _, promise in promise.succeed(.certificateVerified) }
        }
        return NIOSSLServerHandler(context: context)
    }

    /// A reason, without the file name (``LoadError`` adds it).
    package struct Failure: Error {
        package var reason: String
    }

    private static func makeContext(_ tls: WebConfiguration.TLSServer) throws(Failure) -> NIOSSLContext {
        let certificates = try Self.certificates(tls.certificate, name: "cert")
        let keyBytes = try Self.pem(tls.key, name: "key")
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw Failure(reason: "\(Self.describe(tls.key, name: "key")): not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
        configuration.minimumTLSVersion = Self.version(tls.minimumVersion)
        configuration.maximumTLSVersion = Self.version(tls.maximumVersion)
        let ciphers = tls.cipherSuites.filter { !$0.isTLS13 }
        if !ciphers.isEmpty { configuration.cipherSuiteValues = ciphers.map { NIOTLSCipher(rawValue: $0.value) } }
        if !tls.curves.isEmpty { configuration.curves = tls.curves.map { NIOTLSCurve(rawValue: $0.value) } }
        configuration.applicationProtocols = ["http/1.1"]
        switch tls.clientAuth {
        case .none, .request: configuration.certificateVerification = .none
        case .verifyIfGiven: configuration.certificateVerification = .optionalVerification
        case .requireAny, .requireAndVerify: configuration.certificateVerification = .noHostnameVerification
        }
        if let clientCA = tls.clientCA {
            configuration.trustRoots = .certificates(try Self.certificates(clientCA, name: "client_ca"))
            configuration.sendCANameList = true
        }
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            // BoringSSL refuses a key that does not belong to the certificate here.
            throw Failure(
                reason: "\(Self.describe(tls.certificate, name: "cert")) and \(Self.describe(tls.key, name: "key")) cannot be used together (\(error))"
            )
        }
    }

    private static func certificates(_ source: WebConfiguration.PEMSource, name: String) throws(Failure) -> [NIOSSLCertificate] {
        let bytes = try Self.pem(source, name: name)
        let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes)
        guard let certificates, !certificates.isEmpty else {
            throw Failure(reason: "\(Self.describe(source, name: name)): no PEM certificate in it")
        }
        return certificates
    }

    private static func pem(_ source: WebConfiguration.PEMSource, name: String) throws(Failure) -> [UInt8] {
        switch source {
        case .inline(let text): return Array(text.utf8)
        case .file(let path):
            do {
                return try Self.read(path)
            } catch {
                throw Failure(reason: "cannot read \(name)_file \(path): \(error.reason)")
            }
        }
    }

    private static func describe(_ source: WebConfiguration.PEMSource, name: String) -> String {
        switch source {
        case .file(let path): "\(name)_file \(path)"
        case .inline: name
        }
    }

    private static func version(_ version: WebConfiguration.TLSVersion) -> TLSVersion {
        switch version {
        case .tls10: .tlsv1
        case .tls11: .tlsv11
        case .tls12: .tlsv12
        case .tls13: .tlsv13
        }
    }

    /// A whole (small) file; the error names errno's reason.
    package static func read(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: String(cString: strerror(errno)))
            }
            bytes += buffer[0..<count]
            // A web configuration, a certificate chain or a key is a few KiB; refuse to read a
            // device or a huge file by mistake.
            guard bytes.count <= 4 << 20 else { throw Failure(reason: "larger than 4 MiB") }
        }
    }
}

/// The web configuration every listener uses now; SIGHUP replaces it.
///
/// New connections take the TLS context current when they are accepted; each request reads the
/// users and headers current when it arrives (as exporter-toolkit reads its file per request).
public final class WebSecurityHolder: Sendable {
    private let storage: Locked<WebSecurity?>

    public init(_ security: WebSecurity?) {
        self.storage = Locked(security)
    }

    public var current: WebSecurity? { self.storage.withLock { $0 } }

    public func replace(_ security: WebSecurity?) {
        self.storage.withLock { $0 = security }
    }
}
