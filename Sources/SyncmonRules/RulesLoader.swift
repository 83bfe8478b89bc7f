#if canImport(Glibc)
import Glibc
#endif

/// Finds the rules a `rules=` value names: a shipped pack by name, or a rules file by absolute path.
public enum RulesLoader {
    /// The largest rules file read: far above any real pack, small enough that a wrong path (a log
    /// file, a device) fails quickly.
    public static let maximumFileSize = 1 << 20

    /// Loads and checks the rules `reference` names; every problem names the file and line.
    public static func load(_ reference: String) throws(RulesFile.Problem) -> RulePack {
        try Self.loadWithText(reference).pack
    }

    /// The rules `reference` names and, for a rules file, the text they were parsed from (what
    /// a reload compares the file with).
    public static func loadWithText(_ reference: String) throws(RulesFile.Problem) -> (pack: RulePack, text: String?) {
        if ShippedPacks.isPath(reference) {
            let text = try Self.read(reference)
            return (try RulesFile.parse(text, file: reference), text)
        }
        guard let pack = try ShippedPacks.pack(named: reference) else {
            throw RulesFile.Problem(
                file: reference,
                line: 0,
                message: "no shipped pack \(reference) (packs: \(ShippedPacks.names.joined(separator: ", ")); a rules file is named by its absolute path)"
            )
        }
        return (pack, nil)
    }

    /// The text of the rules file at `path`, at most `maximumFileSize` bytes.
    public static func read(_ path: String) throws(RulesFile.Problem) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RulesFile.Problem(file: path, line: 0, message: "cannot open the rules file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw RulesFile.Problem(file: path, line: 0, message: "cannot read the rules file: \(String(cString: strerror(errno)))")
            }
            bytes += buffer[0..<count]
            guard bytes.count <= Self.maximumFileSize else {
                throw RulesFile.Problem(file: path, line: 0, message: "larger than \(Self.maximumFileSize) bytes: not a rules file")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
