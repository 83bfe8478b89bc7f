/// A file the pages load from the daemon (`/static/NAME-HASH.EXT`): its bytes embedded in the
/// binary, its name carrying a hash of its content, so that it can be cached for a year and a
/// new build's file is a new name. Nothing is loaded from another origin.
public struct PageAsset: Sendable {
    /// `/static/page-0123456789abcdef.css`.
    public let path: String
    public let contentType: String
    public let bytes: [UInt8]

    init(name: String, extension: String, contentType: String, text: String) {
        self.bytes = Array(text.utf8)
        self.path = "/static/\(name)-\(Self.hash(self.bytes)).\(`extension`)"
        self.contentType = contentType
    }

    /// The stylesheet (light and dark by `prefers-color-scheme`, a phone's width).
    public static let stylesheet = PageAsset(name: "page", extension: "css", contentType: "text/css; charset=utf-8", text: PageStylesheet.text)
    /// The refresh script.
    public static let script = PageAsset(name: "page", extension: "js", contentType: "text/javascript; charset=utf-8", text: PageScript.text)

    /// Every asset, computed once.
    public static let all = [stylesheet, script]

    /// The asset served at `path`, if any.
    public static func named(_ path: String) -> PageAsset? {
        self.all.first { $0.path == path }
    }

    /// FNV-1a, 64 bits, as 16 hex digits: enough to tell builds' files apart (a cache key, not a
    /// defence against anyone).
    static func hash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
