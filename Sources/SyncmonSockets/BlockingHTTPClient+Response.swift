extension BlockingHTTPClient {
    /// A parsed response.
    public struct Response: Sendable {
        public var status: Int
        public var reason: String
        /// Header names lower-cased, in order; a name may repeat.
        public var headers: [(name: String, value: String)]
        /// The body as sent (after de-chunking, before any content decoding).
        public var body: [UInt8]

        public init(status: Int, reason: String, headers: [(name: String, value: String)], body: [UInt8]) {
            self.status = status
            self.reason = reason
            self.headers = headers
            self.body = body
        }

        /// The first value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            let name = name.lowercased()
            return self.headers.first { $0.name == name }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: self.body, as: UTF8.self) }

        /// The announced body length.
        var contentLength: Int? { self.header("content-length").flatMap { Int($0) } }

        /// Whether the body comes in chunks.
        var isChunked: Bool {
            self.headers.contains { $0.name == "transfer-encoding" && $0.value.lowercased().contains("chunked") }
        }

        /// Parses a complete HTTP/1.1 response: a chunked body is joined, one with a length is
        /// cut to it, and without `hasBody` (the answer to HEAD) there is none.
        public static func parse(_ bytes: [UInt8], hasBody: Bool = true) throws -> Response {
            guard let headEnd = bytes.firstRange(of: Self.headTerminator) else {
                throw HTTPFailure("no complete response head in \(bytes.count) bytes: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
            }
            var response = try Response(head: bytes[..<headEnd.lowerBound])
            let body = bytes[headEnd.upperBound...]
            if !hasBody {
                response.body = []
            } else if response.isChunked {
                response.body = try Self.dechunk(body)
            } else if let length = response.contentLength {
                guard body.count >= length else { throw HTTPFailure("body has \(body.count) of \(length) bytes") }
                response.body = Array(body.prefix(length))
            } else {
                response.body = Array(body)
            }
            return response
        }

        /// The blank line that ends a response head.
        static let headTerminator: [UInt8] = Array("\r\n\r\n".utf8)

        /// The status line and headers of `head` (up to the blank line); no body yet.
        init(head: ArraySlice<UInt8>) throws {
            // "\r\n" is one Character in Swift, so lines split on it.
            var lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            let statusLine = lines.isEmpty ? "" : lines.removeFirst()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw HTTPFailure("bad status line: \(statusLine)")
            }
            self.status = status
            self.reason = parts.count > 2 ? String(parts[2]) : ""
            self.headers = lines.compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon].lowercased(), Self.trimmed(line[line.index(after: colon)...]))
            }
            self.body = []
        }

        private static func trimmed(_ text: Substring) -> String {
            let isBlank = { (character: Character) in character == " " || character == "\t" }
            return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
        }

        private static func dechunk(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
            var result: [UInt8] = []
            var index = bytes.startIndex
            while index < bytes.endIndex {
                guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { throw HTTPFailure("bad chunk header") }
                let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(Self.trimmed(sizeText), radix: 16) else {
                    throw HTTPFailure("bad chunk size \(sizeText)")
                }
                index = lineEnd.upperBound
                if size == 0 { break }
                guard index + size <= bytes.endIndex else { throw HTTPFailure("truncated chunk") }
                result += bytes[index..<(index + size)]
                index += size + 2
            }
            return result
        }
    }
}
