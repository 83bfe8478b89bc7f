/// Decides `basic_auth_users` for each request: answered at once from the ``CredentialCache``
/// when it can, otherwise by bcrypt, which the HTTP handler runs off its event loop.
public final class BasicAuthenticator: Sendable {
    /// What a request's credentials get.
    public enum Decision: Sendable, Equatable {
        case allowed
        case denied
        /// Not known yet: ``verify(_:)`` must run (slowly, off the event loop).
        case needsVerification(BasicCredentials)
    }

    let users: [String: BcryptHash]
    let cache: CredentialCache
    /// Checked for users that do not exist, so the answer takes as long as for one that does
    /// and its timing does not tell which names are users (as exporter-toolkit does).
    static let decoy = BcryptHash("$2y$10$oQWjtZIeulk8/P0zE12QAuD4sFWWMPQbkOW3fGlx5krjH1stZ0JF2")!

    /// `users` maps names to hashes already checked by ``WebConfiguration/parse(_:directory:)``.
    public init(users: [String: String], cacheCapacity: Int = 100) {
        self.users = users.compactMapValues(BcryptHash.init)
        self.cache = CredentialCache(capacity: cacheCapacity)
    }

    /// The fast part: no credentials or a remembered outcome answer at once.
    public func decide(authorization: String?) -> Decision {
        guard let credentials = BasicCredentials.parse(authorization: authorization) else { return .denied }
        let hash = self.users[credentials.user] ?? Self.decoy
        let digest = self.cache.digest(user: credentials.user, hash: hash.text, password: credentials.password)
        switch self.cache.lookup(user: credentials.user, digest: digest) {
        case true?: return .allowed
        case false?: return .denied
        case nil: return .needsVerification(credentials)
        }
    }

    /// The slow part: bcrypt, then the outcome is remembered. Blocks for tens of milliseconds.
    public func verify(_ credentials: BasicCredentials) -> Bool {
        let known = self.users[credentials.user]
        let hash = known ?? Self.decoy
        let accepted = hash.verify(credentials.password) && known != nil
        let digest = self.cache.digest(user: credentials.user, hash: hash.text, password: credentials.password)
        self.cache.store(user: credentials.user, digest: digest, accepted: accepted)
        return accepted
    }
}
