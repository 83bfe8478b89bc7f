import FoundationEssentials

/// The user and password of an `Authorization: Basic …` header (RFC 7617).
public struct BasicCredentials: Sendable, Equatable {
    public var user: String
    public var password: [UInt8]

    public init(user: String, password: [UInt8]) {
        self.user = user
        self.password = password
    }

    /// Parses the header value; nil when it is absent, another scheme, not base64, or has no
    /// `:` between user and password.
    public static func parse(authorization: String?) -> BasicCredentials? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1].filter { $0 != " " && $0 != "\t" }))
        else { return nil }
        let bytes = Array(decoded)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return BasicCredentials(
            user: String(decoding: bytes[..<colon], as: UTF8.self),
            password: Array(bytes[(colon + 1)...])
        )
    }

    /// The header value a client sends for `user` and `password`.
    public static func header(user: String, password: String) -> String {
        "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
    }
}
