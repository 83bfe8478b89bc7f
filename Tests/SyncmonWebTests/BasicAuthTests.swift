import Testing

@testable import SyncmonWeb

/// basic_auth_users: bcrypt through the system's libcrypt against hashes made by htpasswd
/// (`$2y$`) and Python's crypt (`$2b$`, `$2a$`), the header parser and the cache.
@Suite("Basic auth")
struct BasicAuthTests {
    /// Fixtures: `htpasswd -nbBC 10 alice 's3cret pass'`, `htpasswd -nbBC 4 bob hunter2`, and
    /// Python 3.11's `crypt.crypt(password, '$2b$10$…')` / `'$2a$05$…'`.
    static let fixtures: [(user: String, password: String, hash: String)] = [
        ("alice", "s3cret pass", "$2y$10$90X8b7GcOF4u.VVPYBl8nuMkYu5N/A..KALl43NnYn/M3oNxyzKT2"),
        ("bob", "hunter2", "$2y$04$0TfVBVStImzfxIsqQ3yd3uX497FMgIylLDzQQsXViXz474NqxMv/u"),
        ("carol", "correct horse", "$2b$10$abcdefghijklmnopqrstuu23JPZtHcGhwXSF41f93o/7vBdDut3Xu"),
        ("dave", "pa:ss", "$2a$05$ABCDEFGHIJKLMNOPQRSTUu.kFjzHGfFNnYbrBycMawbuE4GU5Ca4e"),
    ]

    @Test("bcrypt accepts the right password and refuses near misses", arguments: 0..<4)
    func bcrypt(_ index: Int) throws {
        let fixture = Self.fixtures[index]
        let hash = try #require(BcryptHash(fixture.hash))
        #expect(hash.verify(Array(fixture.password.utf8)))
        for wrong in ["", fixture.password + " ", String(fixture.password.dropLast()), fixture.password.uppercased()] {
            #expect(!hash.verify(Array(wrong.utf8)), "accepted \(wrong)")
        }
    }

    @Test("the decoy hash for unknown users is a real bcrypt hash of cost 10")
    func decoy() {
        #expect(BasicAuthenticator.decoy.cost == 10)
        #expect(BasicAuthenticator.decoy.verify(Array("syncmon-decoy-password".utf8)))
    }

    @Test("passwords bcrypt would truncate or C would cut are refused")
    func longAndNul() throws {
        let hash = try #require(BcryptHash(Self.fixtures[1].hash))
        #expect(!hash.verify(Array("hunter2".utf8) + [0, 65]))
        #expect(!hash.verify(Array(repeating: UInt8(ascii: "a"), count: 73)))
    }

    @Test("Authorization header parsing")
    func header() {
        #expect(BasicCredentials.parse(authorization: nil) == nil)
        #expect(BasicCredentials.parse(authorization: "Bearer abc") == nil)
        #expect(BasicCredentials.parse(authorization: "Basic !!!") == nil)
        // "nocolon" has no user/password separator.
        #expect(BasicCredentials.parse(authorization: "Basic bm9jb2xvbg==") == nil)
        let header = BasicCredentials.header(user: "dave", password: "pa:ss")
        #expect(header == "Basic ZGF2ZTpwYTpzcw==")
        #expect(BasicCredentials.parse(authorization: header) == BasicCredentials(user: "dave", password: Array("pa:ss".utf8)))
        #expect(BasicCredentials.parse(authorization: "basic  ZGF2ZTpwYTpzcw==")?.user == "dave")
    }

    @Test("decisions: no credentials denied at once; bcrypt once, then the cache answers either way")
    func decisions() throws {
        let authenticator = BasicAuthenticator(users: Dictionary(uniqueKeysWithValues: Self.fixtures.map { ($0.user, $0.hash) }))
        #expect(authenticator.decide(authorization: nil) == .denied)
        #expect(authenticator.decide(authorization: "Basic garbage") == .denied)

        let right = BasicCredentials.header(user: "bob", password: "hunter2")
        guard case .needsVerification(let credentials) = authenticator.decide(authorization: right) else {
            Issue.record("a first request must be verified by bcrypt")
            return
        }
        #expect(authenticator.verify(credentials))
        #expect(authenticator.decide(authorization: right) == .allowed)

        let wrong = BasicCredentials.header(user: "bob", password: "hunter3")
        guard case .needsVerification(let wrongCredentials) = authenticator.decide(authorization: wrong) else {
            Issue.record("a new password must be verified by bcrypt")
            return
        }
        #expect(!authenticator.verify(wrongCredentials))
        #expect(authenticator.decide(authorization: wrong) == .denied)
        // The right password is still remembered.
        #expect(authenticator.decide(authorization: right) == .allowed)

        // A user that does not exist is refused even with the decoy's own password.
        let unknown = BasicCredentials.header(user: "mallory", password: "syncmon-decoy-password")
        guard case .needsVerification(let unknownCredentials) = authenticator.decide(authorization: unknown) else {
            Issue.record("an unknown user must cost a bcrypt like a known one")
            return
        }
        #expect(!authenticator.verify(unknownCredentials))
        #expect(authenticator.decide(authorization: unknown) == .denied)
    }

    @Test("the cache is bounded, keeps no password, and a changed hash misses")
    func cache() {
        let cache = CredentialCache(capacity: 3)
        let password = Array("hunter2".utf8)
        let first = cache.digest(user: "bob", hash: "h1", password: password)
        // SHA-512 crypt: `$6$rounds=1000$` + salt + `$` + 86 characters of digest.
        #expect(first.starts(with: Array("$6$rounds=1000$".utf8)) && first.count > 86)
        #expect(!first.elementsEqual(password) && !String(decoding: first, as: UTF8.self).contains("hunter2"))
        // The same input gives the same digest (it is a key); another process's salt would not.
        #expect(cache.digest(user: "bob", hash: "h1", password: password) == first)
        #expect(CredentialCache(capacity: 3).digest(user: "bob", hash: "h1", password: password) != first)
        // A NUL in a password does not cut it short.
        #expect(cache.digest(user: "bob", hash: "h1", password: password + [0, 1]) != first)
        #expect(cache.digest(user: "bob", hash: "h2", password: password) != first)
        #expect(cache.digest(user: "bo", hash: "h1", password: Array("bhunter2".utf8)) != first)
        cache.store(user: "bob", digest: first, accepted: true)
        #expect(cache.lookup(user: "bob", digest: first) == true)
        #expect(cache.lookup(user: "alice", digest: first) == nil)
        for index in 0..<3 {
            cache.store(user: "u\(index)", digest: cache.digest(user: "u\(index)", hash: "h", password: []), accepted: false)
        }
        #expect(cache.count == 3)
        // The oldest entry went first.
        #expect(cache.lookup(user: "bob", digest: first) == nil)
        #expect(cache.lookup(user: "u2", digest: cache.digest(user: "u2", hash: "h", password: [])) == false)
    }
}
