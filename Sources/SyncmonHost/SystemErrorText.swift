import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// A system call's failure in a person's words: "address already in use", never the call's
/// selector and errno (`bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`).
/// The caller names the thing (address, path) and the fix; this gives the middle.
public enum SystemErrorText {
    /// `strerror(code)`, lower-cased at the start: "no such file or directory".
    public static func words(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// The errno behind `error` when it is a system call's failure (SwiftNIO's `IOError`).
    public static func code(of error: any Error) -> Int32? {
        (error as? IOError)?.errnoCode
    }

    /// Whether `error` is a bind's "address already in use".
    public static func isAddressInUse(_ error: any Error) -> Bool {
        Self.code(of: error) == EADDRINUSE
    }

    /// `error` in words: a system call's failure by its errno, anything else as it describes itself.
    public static func words(_ error: any Error) -> String {
        if let code = Self.code(of: error) { return Self.words(code) }
        if let unknown = error as? SocketAddressError.UnknownHost { return "cannot resolve the host name \(unknown.host)" }
        if let address = error as? SocketAddressError {
            switch address {
            case .unknown(let host, _): return "cannot resolve the host name \(host)"
            case .unsupported: return "unsupported address family"
            case .unixDomainSocketPathTooLong: return "the socket path is too long (over 107 bytes)"
            case .failedToParseIPString(let text): return "not an IP address: \(text)"
            }
        }
        return "\(error)"
    }

    /// Why an HTTP listener could not be opened on `address`, with the fix.
    public static func cannotListen(on address: String, _ error: any Error) -> String {
        let hint: String
        switch Self.code(of: error) {
        case EADDRINUSE: hint = " (another syncmon or exporter? choose another with --listen)"
        case EACCES: hint = " (ports below 1024 need root or CAP_NET_BIND_SERVICE; choose another with --listen)"
        case EADDRNOTAVAIL: hint = " (no interface of this host has that address; choose another with --listen)"
        default: hint = ""
        }
        return "cannot listen on \(address): \(Self.words(error))\(hint)"
    }
}
