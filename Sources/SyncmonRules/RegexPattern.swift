import CPCRE2

/// A regular expression compiled by PCRE2 whose every match is bounded in time.
///
/// A rules file is written by an operator but matched against whatever a service logs, so a
/// hostile or unlucky line (`aaaa…!` against `(a+)+$`) must not stall the daemon: each match runs
/// under PCRE2's match limit (backtracking steps) and depth limit, and a match that hits either is
/// reported as `.limitExceeded` (counted by the caller), never as a hang. Swift's own `Regex` has
/// no such bound, which is why this wraps PCRE2.
///
/// Immutable after `init`: PCRE2 allows concurrent matching with one compiled pattern as long as
/// each match has its own match data, which `match` creates per call.
public final class RegexPattern: @unchecked Sendable {
    /// Why an expression did not compile: PCRE2's message and the offset it points at.
    public struct CompileError: Error, Equatable, CustomStringConvertible {
        public var message: String
        /// The byte offset in the expression where PCRE2 gave up.
        public var offset: Int
        public var description: String { "\(self.message) at offset \(self.offset)" }
    }

    /// The outcome of one match.
    public enum Outcome: Equatable, Sendable {
        case noMatch
        /// Byte ranges of the groups in the subject, group 0 first; `nil` for a group that did not take part.
        case matched([Range<Int>?])
        /// The match limit or depth limit stopped the match: neither a match nor a hang.
        case limitExceeded
    }

    /// Backtracking steps one match may take. A pack's expressions over a 64 KiB line stay far below
    /// it; `(a+)+$` on 30 `a`s reaches it in about a millisecond.
    public static let defaultMatchLimit: UInt32 = 200_000
    /// Nested backtracking depth one match may reach.
    public static let defaultDepthLimit: UInt32 = 5_000

    /// The expression as written.
    public let source: String
    /// Named groups and their group numbers, in the order PCRE2 lists them.
    public let names: [(name: String, group: Int)]
    private let code: OpaquePointer
    private let context: OpaquePointer

    /// Compiles `source` as UTF-8 (`(?<name>…)` and `(?P<name>…)` both name a group).
    public init(
        _ source: String,
        matchLimit: UInt32 = RegexPattern.defaultMatchLimit,
        depthLimit: UInt32 = RegexPattern.defaultDepthLimit
    ) throws(CompileError) {
        var errorCode: Int32 = 0
        var errorOffset = 0
        let options = UInt32(PCRE2_UTF) | UInt32(PCRE2_NEVER_BACKSLASH_C)
        let compiled = source.withCString { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: source.utf8.count) {
                pcre2_compile_8($0, source.utf8.count, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw CompileError(message: Self.message(errorCode), offset: errorOffset)
        }
        // JIT makes a pack's rules cheap per line; the match limit applies to JIT matching too.
        // Where JIT is unavailable (some architectures), the interpreter serves.
        _ = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE))
        guard let context = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(compiled)
            throw CompileError(message: "out of memory", offset: 0)
        }
        pcre2_set_match_limit_8(context, matchLimit)
        pcre2_set_depth_limit_8(context, depthLimit)
        self.source = source
        self.code = compiled
        self.context = context
        self.names = Self.readNames(compiled)
    }

    deinit {
        pcre2_match_context_free_8(self.context)
        pcre2_code_free_8(self.code)
    }

    /// The group number of the group called `name`.
    public func group(named name: String) -> Int? {
        self.names.first { $0.name == name }?.group
    }

    /// Matches valid UTF-8 `subject` (the caller replaced invalid bytes first).
    public func match(_ subject: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let data = pcre2_match_data_create_from_pattern_8(self.code, nil) else { return .limitExceeded }
        defer { pcre2_match_data_free_8(data) }
        let base = subject.baseAddress ?? UnsafePointer(bitPattern: 1)!
        let result = pcre2_match_8(self.code, base, subject.count, 0, UInt32(PCRE2_NO_UTF_CHECK), data, self.context)
        if result == PCRE2_ERROR_NOMATCH { return .noMatch }
        if result < 0 { return .limitExceeded }
        let count = Int(pcre2_get_ovector_count_8(data))
        let vector = pcre2_get_ovector_pointer_8(data)!
        var groups: [Range<Int>?] = []
        groups.reserveCapacity(count)
        for index in 0..<count {
            let start = vector[2 * index]
            let end = vector[2 * index + 1]
            groups.append(start == ~0 || end < start ? nil : Int(start)..<Int(end))
        }
        return .matched(groups)
    }

    /// Matches `subject`, which a Swift `String` always holds as valid UTF-8.
    public func match(_ subject: String) -> Outcome {
        var copy = subject
        return copy.withUTF8 { self.match($0) }
    }

    private static func message(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(code, $0.baseAddress, $0.count) }
        guard length > 0 else { return "error \(code)" }
        return String(decoding: buffer[..<Int(length)], as: UTF8.self)
    }

    /// PCRE2's name table: entries of a big-endian group number then the zero-terminated name.
    private static func readNames(_ code: OpaquePointer) -> [(name: String, group: Int)] {
        var count: UInt32 = 0
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>? = nil
        guard pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &count) == 0, count > 0,
            pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize) == 0,
            pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table) == 0, let table
        else { return [] }
        return (0..<Int(count)).map { index in
            let entry = table + index * Int(entrySize)
            let group = Int(entry[0]) << 8 | Int(entry[1])
            return (String(cString: entry + 2), group)
        }
    }
}
