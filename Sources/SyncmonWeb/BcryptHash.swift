import CCrypt

#if canImport(Glibc)
import Glibc
#endif

/// A bcrypt hash of a `basic_auth_users` entry, as `htpasswd -nBC 10` writes it:
/// `$2y$10$` followed by 22 characters of salt and 31 of hash.
///
/// The format check is pure; ``verify(_:)`` hashes through the system's libcrypt (libxcrypt,
/// which knows `$2a$`, `$2b$` and `$2y$`) and is slow on purpose (cost 10 is tens of
/// milliseconds), so it never runs on an event loop.
public struct BcryptHash: Sendable, Equatable {
    public let text: String
    /// The cost (log2 of the rounds), 4 to 31.
    public let cost: Int

    /// bcrypt's own base64 alphabet.
    private static let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    /// bcrypt reads the first 72 bytes of a password; Go's bcrypt refuses longer ones, and so
    /// does this, so a password is never accepted for its first 72 bytes alone.
    public static let maximumPasswordLength = 72

    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]), bytes[3] == UInt8(ascii: "$"),
            bytes[6] == UInt8(ascii: "$"),
            let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), (4...31).contains(cost),
            bytes[7...].allSatisfy(Self.alphabet.contains)
        else { return nil }
        self.text = text
        self.cost = cost
    }

    /// Whether `password` hashes to this hash. CPU heavy: call it off the event loops.
    public func verify(_ password: [UInt8]) -> Bool {
        guard password.count <= Self.maximumPasswordLength, !password.contains(0) else { return false }
        let size = MemoryLayout<crypt_data>.size
        // crypt_rn wants its work area zeroed before first use; it is 32 KiB, so on the heap.
        guard let data = calloc(1, size) else { return false }
        defer {
            // The work area held the password's key schedule: wipe it before it is freed.
            memset(data, 0, size)
            free(data)
        }
        var phrase = password.map { CChar(bitPattern: $0) }
        phrase.append(0)
        defer { for index in phrase.indices { phrase[index] = 0 } }
        guard let output = crypt_rn(phrase, self.text, data, Int32(size)) else { return false }
        let computed = UnsafeRawBufferPointer(start: output, count: strlen(output))
        return Self.constantTimeEqual(computed, Array(self.text.utf8))
    }

    /// Compares without stopping at the first difference, so the time taken does not tell how
    /// much of a guess was right. Lengths are not secret (every bcrypt hash is 60 bytes).
    static func constantTimeEqual(_ lhs: UnsafeRawBufferPointer, _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<rhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
