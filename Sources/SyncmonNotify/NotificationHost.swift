#if canImport(Glibc)
import Glibc
#endif

/// This host's name as notifications say it (`SYNCMON_HOST`, the title, `syncmon@HOST`).
public enum NotificationHost {
    /// The host name, up to its first dot; `localhost` when it has none.
    public static var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = String(name.prefix { $0 != "." })
        return short.isEmpty ? "localhost" : short
    }
}
