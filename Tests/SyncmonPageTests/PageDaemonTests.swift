import Foundation
import SyncmonCore
import SyncmonPage
import SyncmonSockets
import SyncmonTestSupport
import Testing

/// The status page served by the real binary (docs/page.md): the headers of every page and
/// asset, gzip when asked, HEAD, a 404 page for a pair nobody reports, and a hostile message
/// sent through `syncmon emit` coming back as text.
@Suite("Status page from the real daemon", .serialized)
struct PageDaemonTests {
    static let csp =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    static let hostile = "<img src=x onerror=alert(1)>"

    /// The headers every page and asset carries.
    static func expectSecurityHeaders(_ response: BlockingHTTPClient.Response, _ path: String) {
        #expect(response.header("content-security-policy") == Self.csp, "\(path)")
        #expect(response.header("x-content-type-options") == "nosniff", "\(path)")
        #expect(response.header("x-frame-options") == "DENY", "\(path)")
    }

    @Test("pages and assets carry the CSP, nosniff and DENY; gzip when accepted; HEAD; 404 page; a hostile message is text")
    func served() async throws {
        let directory = try TemporaryDirectory(prefix: "smpg")
        defer { directory.remove() }
        let daemon = try await DaemonProcess.start(in: directory.path)
        let now = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))
        let emitted = try await ExternalCommand.run(
            SyncmonProcess.binaryPath,
            [
                "emit", "--events-socket", daemon.eventsSocket, "--engine", "notes", "containerEvent", "kind=export", "id=a",
                "started=\(RFC3339.format(now.adding(.seconds(Int64(-2)))))", "ended=\(RFC3339.format(now.adding(.seconds(Int64(-1)))))",
                "succeeded=false", "error.code=quotaExceeded", "error.message=\(Self.hostile)",
            ])
        #expect(emitted.status == 0, "\(emitted.errors)")
        let shown = await Polling.until { (try? daemon.get("/").text.contains("data-summary=\"error\"")) == true }
        #expect(shown, "\(daemon.standardError)")

        let page = try daemon.get("/")
        #expect(page.status == 200 && page.header("content-type") == "text/html; charset=utf-8")
        #expect(page.header("cache-control") == "no-store")
        Self.expectSecurityHeaders(page, "/")
        #expect(page.text.contains("<tr data-pair=\"notes/private\" data-summary=\"error\">"))
        #expect(!page.text.contains(Self.hostile) && page.text.contains("&lt;img src=x onerror=alert(1)&gt;"))

        let gzipped = try daemon.get("/", headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped.header("content-encoding") == "gzip" && gzipped.body.starts(with: [0x1F, 0x8B]))
        let unzipped = try await ExternalCommand.run("/bin/gzip", ["-dc"], input: gzipped.body)
        #expect(unzipped.output.contains("<tr data-pair=\"notes/private\""))
        Self.expectSecurityHeaders(gzipped, "/ gzip")

        let head = try BlockingHTTPClient.get(port: daemon.port, path: "/", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        Self.expectSecurityHeaders(head, "HEAD /")
        let post = try BlockingHTTPClient.get(port: daemon.port, path: "/", method: "POST")
        #expect(post.status == 405)

        let pairPage = try daemon.get("/pair/notes/private")
        #expect(pairPage.status == 200)
        Self.expectSecurityHeaders(pairPage, "/pair/notes/private")
        #expect(pairPage.text.contains("<div class=\"msg\">&lt;img src=x onerror=alert(1)&gt;</div>"))

        for asset in PageAsset.all {
            let response = try daemon.get(asset.path)
            #expect(response.status == 200 && response.body == asset.bytes, "\(asset.path)")
            #expect(response.header("content-type") == asset.contentType)
            #expect(response.header("cache-control") == "public, max-age=31536000, immutable")
            Self.expectSecurityHeaders(response, asset.path)
        }
        for path in ["/pair/nobody/private", "/pair/%3Cb%3E/x", "/static/page-0000000000000000.css"] {
            let missing = try daemon.get(path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.header("content-type") == "text/html; charset=utf-8", "\(path)")
            Self.expectSecurityHeaders(missing, path)
        }
        #expect(await daemon.stop() == .exited(0))
    }
}
