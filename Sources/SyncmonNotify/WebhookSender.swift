import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import SyncmonWeb

/// POSTs notifications to one webhook (docs/notifications.md): the JSON document, the route's
/// headers (file-held values read at each delivery), redirects refused, a deadline per request;
/// a 2xx answer is delivered, anything else a failure in words.
public final class WebhookSender: Sendable {
    private let target: WebhookTarget
    private let client: HTTPClient

    public init(_ target: WebhookTarget) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let caFile = target.caFile {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(WebSecurity.read(caFile)))
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow, decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.target = target
    }

    /// Sends `body` within `timeout` seconds.
    public func send(_ body: [UInt8], timeout: Double) async -> DeliveryOutcome {
        var request = HTTPClientRequest(url: self.target.url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "syncmon")
        for (name, value) in self.target.headers { request.headers.add(name: name, value: value) }
        for (name, path) in self.target.headerFiles {
            guard let value = Self.firstLine(of: path) else { return .failed("cannot read the header file \(path) for \(name)") }
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(body)
        do {
            let response = try await self.client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            // The answer's body is not wanted; a bounded read frees the connection.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if (200..<300).contains(response.status.code) { return .delivered }
            let location = response.headers.first(name: "location").map { " to \($0)" } ?? ""
            return .failed("HTTP \(response.status.code) \(response.status.reasonPhrase)\(location) from \(self.target.url)")
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return .failed("no answer from \(self.target.url) within \(Int(timeout))s")
        } catch {
            return .failed("\(self.target.url): \(error)")
        }
    }

    public func shutdown() async {
        try? await self.client.shutdown()
    }

    /// The first line of the file at `path`, without its line break; nil when it cannot be read.
    static func firstLine(of path: String) -> String? {
        guard let bytes = try? WebSecurity.read(path) else { return nil }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}
