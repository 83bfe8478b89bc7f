import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SyncmonHost

#if canImport(Glibc)
import Glibc
import SyncmonWeb
#endif

/// HTTP(S) GETs with what talking to a syncmon (or any exporter) behind a web configuration
/// takes: a CA file to trust, basic-auth credentials, a deadline, and failures sorted into
/// what a person can act on (cannot connect, TLS refused and why, timed out).
///
/// One client per set of options; it keeps its connections until ``shutdown()``. For a single
/// request, ``get(_:accept:options:)`` makes and shuts one down.
public final class HTTPGetClient: Sendable {
    /// What every request of this client uses.
    public struct Options: Sendable {
        /// PEM certificates (a CA or the server's own) to trust instead of the system's.
        public var caFile: String?
        /// A PEM client certificate (chain) and its private key, for a server that asks for one
        /// (`client_auth_type` in its web configuration). Both or neither.
        public var certificateFile: String?
        public var keyFile: String?
        /// Basic-auth user; sent with `password` (empty when nil).
        public var user: String?
        public var password: String?
        /// The deadline of a whole request, connect to last byte.
        public var timeout: Duration

        public init(
            caFile: String? = nil,
            certificateFile: String? = nil,
            keyFile: String? = nil,
            user: String? = nil,
            password: String? = nil,
            timeout: Duration = .seconds(5)
        ) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.user = user
            self.password = password
            self.timeout = timeout
        }
    }

    /// A response, whatever its status.
    public struct Response: Sendable {
        public var status: HTTPResponseStatus
        public var headers: HTTPHeaders
        public var body: [UInt8]

        /// The status code, for callers that do not import NIOHTTP1.
        public var statusCode: Int { Int(self.status.code) }
        /// "404 Not Found".
        public var statusLine: String { "\(self.status.code) \(self.status.reasonPhrase)" }
    }

    /// Why no response arrived.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The URL is not `http://` or `https://` with a host.
        case invalidURL(String)
        /// The CA file cannot be read or holds no certificate.
        case caFile(String)
        /// The client certificate or key cannot be read, or only one of them was given.
        case clientCertificate(String)
        /// No connection: refused, unreachable, name not found.
        case unreachable(String)
        /// The TLS handshake failed; the reason names the certificate problem when it is one.
        case tls(String)
        case timedOut
        case other(String)

        public var description: String {
            switch self {
            case .invalidURL(let url): "not an http:// or https:// URL: \(url)"
            case .caFile(let reason): reason
            case .clientCertificate(let reason): reason
            case .unreachable(let reason): reason
            case .tls(let reason): "TLS handshake failed: \(reason)"
            case .timedOut: "timed out"
            case .other(let reason): reason
            }
        }
    }

    private let client: HTTPClient
    private let options: Options

    public init(options: Options) throws(Failure) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let caFile = options.caFile {
            let certificates = try Self.certificates(in: caFile, named: "the CA file", failure: Failure.caFile)
            tls.trustRoots = .certificates(certificates)
        }
        switch (options.certificateFile, options.keyFile) {
        case (nil, nil):
            break
        case (let certificateFile?, let keyFile?):
            let chain = try Self.certificates(in: certificateFile, named: "the client certificate", failure: Failure.clientCertificate)
            let key: NIOSSLPrivateKey
            do {
                key = try NIOSSLPrivateKey(bytes: WebSecurity.read(keyFile), format: .pem)
            } catch let error as WebSecurity.Failure {
                throw .clientCertificate("cannot read the client key \(keyFile): \(error.reason)")
            } catch {
                throw .clientCertificate("the client key \(keyFile) holds no PEM private key")
            }
            tls.certificateChain = chain.map { .certificate($0) }
            tls.privateKey = .privateKey(key)
        case (nil, _?):
            throw .clientCertificate("a client key needs its certificate (--cert-file)")
        case (_?, nil):
            throw .clientCertificate("a client certificate needs its key (--key-file)")
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: Self.timeAmount(options.timeout)),
            decompression: .disabled
        )
        // A refused connection or a failed handshake is the answer: do not retry until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.options = options
    }

    /// GETs `url`; any status is a response. `headers` are added (an API key, say); `timeout`
    /// overrides the client's deadline (a long poll). Bodies over `maximumBodySize` are an error.
    public func get(
        _ url: String,
        accept: String? = nil,
        headers: [(String, String)] = [],
        timeout: Duration? = nil,
        maximumBodySize: Int = 64 << 20,
        method: HTTPMethod = .GET
    ) async throws(Failure) -> Response {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw .invalidURL(url) }
        var request = HTTPClientRequest(url: url)
        // POST for the one request that acts (`syncmon notify test`); everything else reads.
        request.method = method
        if let accept { request.headers.add(name: "accept", value: accept) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let user = self.options.user {
            request.headers.add(name: "authorization", value: BasicCredentials.header(user: user, password: self.options.password ?? ""))
        }
        do {
            let response = try await self.client.execute(request, timeout: Self.timeAmount(timeout ?? self.options.timeout))
            let body = try await response.body.collect(upTo: maximumBodySize)
            return Response(status: response.status, headers: response.headers, body: Array(body.readableBytesView))
        } catch {
            throw Self.classify(error, url: url)
        }
    }

    /// POSTs to `url` with no body (`syncmon notify test`), as ``get(_:accept:headers:timeout:maximumBodySize:method:)``.
    public func post(_ url: String, timeout: Duration? = nil) async throws(Failure) -> Response {
        try await self.get(url, accept: "application/json", timeout: timeout, method: .POST)
    }

    public func shutdown() async {
        try? await self.client.shutdown()
    }

    /// One request with a client of its own.
    public static func get(_ url: String, accept: String? = nil, options: Options) async throws(Failure) -> Response {
        let client = try HTTPGetClient(options: options)
        do {
            let response = try await client.get(url, accept: accept)
            await client.shutdown()
            return response
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// The PEM certificates in the file at `path` (`named` for messages), at least one, or
    /// `failure` saying why not.
    private static func certificates(
        in path: String,
        named name: String,
        failure: (String) -> Failure
    ) throws(Failure) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(WebSecurity.read(path))
        } catch let error as WebSecurity.Failure {
            throw failure("cannot read \(name) \(path): \(error.reason)")
        } catch {
            certificates = []
        }
        guard !certificates.isEmpty else { throw failure("\(name) \(path) holds no PEM certificate") }
        return certificates
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Sorts AsyncHTTPClient's, NIO's and BoringSSL's errors into ``Failure``.
    static func classify(_ error: any Error, url: String) -> Failure {
        if let error = error as? HTTPClientError {
            if [.connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout].contains(error) { return .timedOut }
            if [.invalidURL, .emptyHost, .emptyScheme].contains(error) { return .invalidURL(url) }
            return .other(Self.words(error))
        }
        if let unknown = error as? SocketAddressError.UnknownHost { return .unreachable(SystemErrorText.words(unknown)) }
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first, let io = failure.error as? IOError {
                return .unreachable(String(cString: strerror(io.errnoCode)))
            }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return .unreachable("cannot resolve \(error.host)") }
            return .unreachable("cannot connect to \(error.host):\(error.port)")
        }
        if let io = error as? IOError { return .unreachable(String(cString: strerror(io.errnoCode))) }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return .tls("the server's certificate is not valid for the host in \(url)")
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return .tls(Self.describeTLS("\(error)"))
        }
        return .other("\(error)")
    }

    /// An AsyncHTTPClient failure in words that say what the server did, never the error's
    /// type name (`HTTPClientError.remoteConnectionClosed`); the caller names the URL.
    public static func words(_ error: HTTPClientError) -> String {
        switch error {
        case .remoteConnectionClosed, .uncleanShutdown:
            return "the server closed the connection before answering (is this an HTTP server's address, and http:// or https:// as it serves?)"
        case .connectTimeout: return "no connection within the connect timeout (is the host reachable?)"
        case .readTimeout, .deadlineExceeded: return "no answer within the timeout"
        case .tlsHandshakeTimeout: return "no TLS handshake within the timeout (does the server speak TLS there?)"
        case .bodyLengthMismatch, .contentLengthMissing, .identityCodingIncorrectlyPresent:
            return "the server's answer is not valid HTTP"
        default:
            // The remaining codes are this client's own misuse, not the server's doing.
            let name = String(describing: error)
            return "the HTTP request failed (\(name.split(separator: ".").last.map(String.init) ?? name))"
        }
    }

    /// BoringSSL's reason codes, in words.
    static func describeTLS(_ text: String) -> String {
        let reasons: [(code: String, words: String)] = [
            ("CERTIFICATE_VERIFY_FAILED", "the server's certificate is not trusted (give its CA with --ca-file)"),
            ("CERTIFICATE_REQUIRED", "the server asks for a client certificate (give one with --cert-file and --key-file)"),
            ("SSLV3_ALERT_HANDSHAKE_FAILURE", "the server refused the handshake (a client certificate or cipher it requires?)"),
            ("WRONG_VERSION_NUMBER", "the server does not speak TLS there (use http://?)"),
            ("UNSUPPORTED_PROTOCOL", "no TLS version in common"),
            ("NO_SHARED_CIPHER", "no cipher suite in common"),
        ]
        for reason in reasons where text.contains(reason.code) { return "\(reason.words): \(reason.code)" }
        return text
    }
}
