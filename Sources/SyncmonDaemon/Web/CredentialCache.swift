import Crypto
import Synchronization

/// Remembers which credentials bcrypt already accepted or refused, so a scrape every few
/// seconds pays bcrypt's tens of milliseconds once, not every time.
///
/// No password is kept: an entry holds the user and an HMAC-SHA256, under a key made at
/// random for this process, of the user, the stored hash and the password. The stored hash
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

    private let key = SymmetricKey(size: .bits256)
    private let capacity: Int
    private let entries = Mutex<[Entry]>([])

    init(capacity: Int = 100) {
        self.capacity = capacity
    }

    /// The digest a lookup and a store are keyed by.
    func digest(user: String, hash: String, password: [UInt8]) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: self.key)
        hmac.update(data: Array(user.utf8) + [0] + Array(hash.utf8) + [0])
        hmac.update(data: password)
        return Array(hmac.finalize())
    }

    /// The remembered outcome for these credentials, or nil when bcrypt must decide.
    func lookup(user: String, digest: [UInt8]) -> Bool? {
        self.entries.withLock { entries in
            var found: Bool? = nil
            // Every entry of the user is compared in full, whichever matches.
            for entry in entries where entry.user == user {
                if Self.constantTimeEqual(entry.digest, digest) { found = entry.accepted }
            }
            return found
        }
    }

    func store(user: String, digest: [UInt8], accepted: Bool) {
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
