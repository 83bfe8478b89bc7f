import NIOHTTP1
import SyncmonCore
import SyncmonPage

#if canImport(Glibc)
import Glibc
#endif

/// The status page's routes (docs/page.md): `/`, `/pair/ENGINE/DATABASE` and `/static/…`. Pages
/// are rendered from a snapshot only when asked for; every page and asset carries the headers
/// that keep it to itself (``pageHeaders``). GET and HEAD only, as every route.
extension HTTPRouter {
    /// The Content-Security-Policy of every page and asset: nothing from another origin, no
    /// inline script or style, no framing, no form.
    package static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The headers of every page and asset.
    static let pageHeaders: [(String, String)] = [
        ("content-security-policy", contentSecurityPolicy),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
    ]

    /// This host's name, read once, up to its first dot.
    static let pageHostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(name.prefix { $0 != "." })
    }()

    /// The answer for a page's path, or `nil` for a path that is not a page's.
    func page(for request: HTTPRequest, now: Timestamp) -> HTTPResponse? {
        let path = request.path
        if path.hasPrefix("/static/") {
            guard let asset = PageAsset.named(path) else { return self.pageNotFound(path: path, now: now) }
            return HTTPResponse(
                contentType: asset.contentType, body: asset.bytes,
                headers: Self.pageHeaders + [("cache-control", "public, max-age=31536000, immutable")])
        }
        if path == "/" {
            return Self.html(.ok, StatusPage.render(self.pageModel(now: now)))
        }
        guard let key = PairPage.key(path: path) else { return nil }
        let model = self.pageModel(now: now)
        guard let key, let pair = model.pair(key) else { return self.pageNotFound(path: path, now: now, model: model) }
        return Self.html(.ok, PairPage.render(pair, model: model))
    }

    private func pageModel(now: Timestamp) -> PageModel {
        PageModel(monitor: self.store.snapshot().monitor, host: Self.pageHostName, now: now)
    }

    private func pageNotFound(path: String, now: Timestamp, model: PageModel? = nil) -> HTTPResponse {
        let model = model ?? PageModel(host: Self.pageHostName, now: now, pairs: [])
        return Self.html(.notFound, PairPage.notFound(path: path, model: model))
    }

    private static func html(_ status: HTTPResponseStatus, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/html; charset=utf-8", body: body, headers: self.pageHeaders + [("cache-control", "no-store")])
    }
}
