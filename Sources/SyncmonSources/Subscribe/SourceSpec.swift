/// One `--subscribe` source: its name (the `source` label and the name of its state files) and
/// where its stream comes from.
///
/// Written `URL` or `NAME=URL`:
/// - `unix:/run/notes/events.sock` — a Unix stream socket the engine serves its lines on;
/// - `http://host:port/path` — a streaming GET answering NDJSON or `text/event-stream`;
/// - `file:/var/log/notes/events.jsonl` (or `file:///var/log/…`) — an append-only JSONL file;
/// - `syncthing+http://127.0.0.1:8384` (or `syncthing+https://`) — a Syncthing instance's REST
///   API, read through the Syncthing adapter (docs/syncthing.md); the source name is the engine.
///
/// Names are 1–64 characters of `[A-Za-z0-9._-]` starting with a letter or digit. Without
/// `NAME=`, the name is derived: the scheme, `-`, and the last path component with every other
/// character replaced by `_` (`unix-events.sock`, `file-notes.jsonl`, `http-events`; an HTTP URL
/// with an empty path uses `host_port`), cut to 64 characters; when two sources would get the
/// same name, the later ones (in configuration order) get `-2`, `-3`, …. A Syncthing source's
/// derived name is `syncthing`. Explicit names are kept
/// as written and never renamed, so a derived name steps aside for them.
package struct SourceSpec: Sendable, Equatable, CustomStringConvertible {
    package enum Endpoint: Sendable, Equatable {
        case unix(path: String)
        /// `target` is the request target: path plus query, without a fragment.
        case http(host: String, port: Int, target: String)
        case file(path: String)
        /// A Syncthing REST API at `host:port`, over TLS when `secure`.
        case syncthing(host: String, port: Int, secure: Bool)
        /// A service systemd runs (docs/systemd-units.md).
        case unit(UnitTarget)

        package var scheme: String {
            switch self {
            case .unit: "unit"
            case .unix: "unix"
            case .http: "http"
            case .file: "file"
            case .syncthing(_, _, let secure): secure ? "syncthing+https" : "syncthing+http"
            }
        }

        /// What the status document calls the source's kind: `syncthing` (over TLS or not),
        /// `http`, `unix`, `file` or `unit`.
        package var kind: String {
            if case .syncthing = self { return "syncthing" }
            return self.scheme
        }
    }

    package var name: String
    package var endpoint: Endpoint
    /// The URL as configured (without the `NAME=` part), for logs.
    package var url: String
    /// Whether the name was written by the operator (`NAME=URL`).
    package var isNamed: Bool

    package var description: String { "\(self.name)=\(self.url)" }

    /// Whether the source needs a credential (an API key) besides its URL.
    package var needsCredential: Bool {
        if case .syncthing = self.endpoint { return true }
        return false
    }

    package init(name: String, endpoint: Endpoint, url: String, isNamed: Bool = true) {
        self.name = name
        self.endpoint = endpoint
        self.url = url
        self.isNamed = isNamed
    }

    /// A configured source that cannot be used.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var source: String
        package var message: String
        package var description: String { "--subscribe \(self.source): \(self.message)" }
    }

    package static let maximumNameLength = 64

    /// Whether `name` may be used as a source name.
    package static func isValidName<S: StringProtocol>(_ name: S) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= Self.maximumNameLength, Self.isAlphanumeric(first) else { return false }
        return name.utf8.allSatisfy(Self.isNameByte)
    }

    /// Parses every configured source, then `adding` (named sources declared otherwise), and
    /// gives each a unique name (see the type's description).
    package static func parseAll(_ entries: [String], adding declared: [SourceSpec] = []) throws(ParseError) -> [SourceSpec] {
        var specs: [SourceSpec] = []
        for entry in entries { specs.append(try Self.parse(entry)) }
        specs += declared
        var taken = Set<String>()
        for spec in specs where spec.isNamed {
            guard taken.insert(spec.name).inserted else {
                throw ParseError(source: spec.description, message: "the name \(spec.name) is used twice")
            }
        }
        for index in specs.indices where !specs[index].isNamed {
            let base = specs[index].name
            var candidate = base
            var counter = 2
            while taken.contains(candidate) {
                let suffix = "-\(counter)"
                candidate = String(base.prefix(Self.maximumNameLength - suffix.count)) + suffix
                counter += 1
            }
            taken.insert(candidate)
            specs[index].name = candidate
        }
        return specs
    }

    /// Parses one `URL` or `NAME=URL` (the derived name is not yet deduplicated).
    package static func parse(_ entry: String) throws(ParseError) -> SourceSpec {
        let text = entry.trimmingSpaces()
        var name: String? = nil
        var url = text
        if let equals = text.firstIndex(of: "="), Self.isValidName(text[..<equals]) {
            let rest = text[text.index(after: equals)...]
            if rest.hasPrefix("unix:") || rest.hasPrefix("http:") || rest.hasPrefix("https:") || rest.hasPrefix("file:")
                || rest.hasPrefix("syncthing+") || rest.hasPrefix("unit:")
            {
                name = String(text[..<equals])
                url = String(rest)
            }
        }
        let endpoint = try Self.endpoint(of: url, entry: entry)
        return SourceSpec(name: name ?? Self.derivedName(endpoint), endpoint: endpoint, url: url, isNamed: name != nil)
    }

    private static func endpoint(of url: String, entry: String) throws(ParseError) -> Endpoint {
        func fail(_ message: String) -> ParseError { ParseError(source: entry, message: message) }
        if url.hasPrefix("unix:") {
            var path = String(url.dropFirst("unix:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard path.hasPrefix("/") else { throw fail("a unix: source needs an absolute path (unix:/run/engine/events.sock)") }
            guard path.utf8.count < 108 else { throw fail("the socket path is longer than 107 bytes") }
            return .unix(path: path)
        }
        if url.hasPrefix("file:") {
            var path = String(url.dropFirst("file:".count))
            // file:///path (empty authority) and file://localhost/path are the same as file:/path.
            if path.hasPrefix("//localhost/") {
                path = String(path.dropFirst("//localhost".count))
            } else if path.hasPrefix("//") {
                path = String(path.dropFirst(2))
            }
            guard path.hasPrefix("/"), path.count > 1 else { throw fail("a file: source needs an absolute path (file:/var/log/engine/events.jsonl)") }
            guard !path.hasSuffix("/") else { throw fail("a file: source names a file, not a directory") }
            return .file(path: Self.percentDecoded(path))
        }
        if url.hasPrefix("unit:") { return .unit(try UnitTarget.parse(String(url.dropFirst("unit:".count)))) }
        if url.hasPrefix("syncthing+http://") || url.hasPrefix("syncthing+https://") {
            let secure = url.hasPrefix("syncthing+https://")
            let rest = String(url.dropFirst(secure ? "syncthing+https://".count : "syncthing+http://".count))
            // The API's root: nothing may follow but a slash.
            var authority = Substring(rest)
            if authority.hasSuffix("/") { authority = authority.dropLast() }
            guard !authority.contains("/"), !authority.contains("?") else { throw fail("give the API's root (syncthing+http://HOST:PORT), without a path") }
            guard !authority.contains("@") else { throw fail("credentials in the URL are not supported; the API key comes from a credential file") }
            let (host, port) = try Self.hostAndPort(authority, defaultPort: 8384, fail: fail)
            return .syncthing(host: host, port: port, secure: secure)
        }
        if url.hasPrefix("syncthing+") {
            throw fail("a Syncthing source is syncthing+http://HOST:PORT or syncthing+https://HOST:PORT")
        }
        if url.hasPrefix("https:") {
            throw fail("https is not supported; put a TLS-terminating proxy on localhost, or use http://, unix: or file:")
        }
        guard url.hasPrefix("http://") else {
            throw fail("unsupported source; use unix:/path, http://host:port/path, file:/path or syncthing+http://host:port")
        }
        var rest = url.dropFirst("http://".count)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        guard !authority.contains("@") else { throw fail("credentials in the URL are not supported") }
        let (host, port) = try Self.hostAndPort(authority, defaultPort: 80, fail: fail)
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw fail("the path must be ASCII without spaces (percent-encode it)") }
        return .http(host: host, port: port, target: target)
    }

    /// `HOST[:PORT]`, `[IPv6][:PORT]`, of an http:// or a Syncthing URL.
    private static func hostAndPort(_ authority: Substring, defaultPort: Int, fail: (String) -> ParseError) throws(ParseError) -> (String, Int) {
        var host = authority
        var portText: Substring? = nil
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("unterminated IPv6 address") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("bad host:port") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw fail("missing host") }
        var port = defaultPort
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else { throw fail("bad port \(portText)") }
            port = value
        }
        return (String(host), port)
    }

    /// The name a source gets without `NAME=` (before deduplication).
    static func derivedName(_ endpoint: Endpoint) -> String {
        let component: Substring
        switch endpoint {
        case .syncthing:
            // The source name is the engine name: one Syncthing is simply "syncthing".
            return "syncthing"
        case .unix(let path), .file(let path):
            component = Self.lastComponent(path)
        case .unit(let target):
            component = Substring(target.unit)
        case .http(let host, let port, let target):
            let path = target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
            let last = Self.lastComponent(path)
            component = last.isEmpty ? Substring(port == 80 ? host : "\(host)_\(port)") : last
        }
        var name = endpoint.scheme + "-"
        for scalar in component.unicodeScalars {
            name.unicodeScalars.append(scalar.isASCII && Self.isNameByte(UInt8(scalar.value)) ? scalar : "_")
        }
        if component.isEmpty { name.removeLast() }
        return String(name.prefix(Self.maximumNameLength))
    }

    private static func lastComponent<S: StringProtocol>(_ path: S) -> Substring where S.SubSequence == Substring {
        let trimmed = path.reversed().drop { $0 == "/" }.count
        let withoutSlashes = path.prefix(trimmed)
        if let slash = withoutSlashes.lastIndex(of: "/") { return withoutSlashes[withoutSlashes.index(after: slash)...] }
        return withoutSlashes
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        Self.isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
                let value = UInt8(String(decoding: input[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
