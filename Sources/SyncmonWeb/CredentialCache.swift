import CCrypt
import SyncmonLock

#if canImport(Glibc)
import Glibc
#endif

/// Remembers which credentials bcrypt already accepted or refused, so a scrape every few
/// seconds pays bcrypt's tens of milliseconds once, not every time.
///
/// No password is kept: an entry holds the user and a one-way digest of the user, the stored
/// hash and the password — SHA-512 crypt from the system's libcrypt at its fewest rounds
/// (1,000: well under a millisecond), salted with a salt drawn at random for this process, so
/// the digest is keyed and no second crypto library is needed. The stored hash
/// is part of it, so a reload that changes a user's hash invalidates the entry. Lookups compare
/// digests in constant time. Bounded: the oldest entry goes when it is full (refusals are
/// remembered too, so a client with a wrong password does not cost a bcrypt per request, and a
/// flood of guesses only evicts).
final class CredentialCache: Sendable {
    private struct Entry {
        var user: String
        var digest: [UInt8]
        var accepted: Bool
    }

    /// `$6$rounds=1000$SALT$`, the salt random for this process.
    private let setting: [CChar]
    private let capacity: Int
    private let entries = Locked<[Entry]>([])

    init(capacity: Int = 100) {
        self.capacity = capacity
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // No random bytes given: libxcrypt draws them from the kernel (getrandom).
        let made = crypt_gensalt_rn("$6$", 1000, nil, 0, &setting, Int32(setting.count)) != nil
        // Fails only without a kernel random source; the cache then keys by a fixed salt and
        // stays correct, only unkeyed.
        self.setting = made ? setting : Array("$6$rounds=1000$syncmon$".utf8CString)
    }

    /// The digest a lookup and a store are keyed by; empty if libcrypt failed (not cached).
    func digest(user: String, hash: String, password: [UInt8]) -> [UInt8] {
        // crypt reads a C string: the bytes go in as hex, so a NUL in a password cannot cut it.
        let input = Array(user.utf8) + [0] + Array(hash.utf8) + [0] + password
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var phrase: [CChar] = []
        phrase.reserveCapacity(input.count * 2 + 1)
        for byte in input {
            phrase.append(CChar(bitPattern: hex[Int(byte >> 4)]))
            phrase.append(CChar(bitPattern: hex[Int(byte & 0xF)]))
        }
        phrase.append(0)
        defer { for index in phrase.indices { phrase[index] = 0 } }
        let size = MemoryLayout<crypt_data>.size
        guard let data = calloc(1, size) else { return [] }
        defer {
            memset(data, 0, size)
            free(data)
        }
        guard let output = crypt_rn(phrase, self.setting, data, Int32(size)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: output, count: strlen(output)))
    }

    /// The remembered outcome for these credentials, or nil when bcrypt must decide.
    func lookup(user: String, digest: [UInt8]) -> Bool? {
        // An empty digest is a libcrypt failure: never a match, so bcrypt decides.
        guard !digest.isEmpty else { return nil }
        return self.entries.withLock { entries in
            var found: Bool? = nil
            // Every entry of the user is compared in full, whichever matches.
            for entry in entries where entry.user == user {
                if Self.constantTimeEqual(entry.digest, digest) { found = entry.accepted }
            }
            return found
        }
    }

    func store(user: String, digest: [UInt8], accepted: Bool) {
        guard !digest.isEmpty else { return }
        self.entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.user == user && Self.constantTimeEqual($0.digest, digest) }) {
                entries.remove(at: index)
            }
            if entries.count >= self.capacity { entries.removeFirst(entries.count - self.capacity + 1) }
            entries.append(Entry(user: user, digest: digest, accepted: accepted))
        }
    }

    var count: Int { self.entries.withLock { $0.count } }

    private static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
