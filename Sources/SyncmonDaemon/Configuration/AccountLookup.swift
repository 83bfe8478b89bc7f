#if canImport(Glibc)
import Glibc
#endif

/// User and group names to ids, for `allowed-users` and `allowed-groups`: resolved when the
/// configuration is read (start and SIGHUP), never per event. A number is taken as an id.
enum AccountLookup {
    static func user(_ name: String) -> UInt32? {
        if let id = UInt32(name) { return id }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    static func group(_ name: String) -> UInt32? {
        if let id = UInt32(name) { return id }
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>? = nil
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
