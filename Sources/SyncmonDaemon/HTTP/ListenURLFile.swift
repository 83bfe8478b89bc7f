import Logging
import NIOCore
import SyncmonContract
import SyncmonHost
import SyncmonSystemd

#if canImport(Glibc)
import Glibc
#endif

/// The `http-url` file beside the push socket: the URL of the daemon's first HTTP listener, so
/// that `syncmon status`, `forget` and `notify` find a daemon that serves elsewhere than
/// 127.0.0.1:9478 — a user's daemon moved off a port a system daemon holds, or one told
/// `--listen` (docs/user-sessions.md). Written once the listeners are bound, removed at a
/// clean stop; a stale one after a crash names a port nobody answers, as the default would.
struct ListenURLFile {
    let path: String

    init(eventsSocket: String) {
        let directory = eventsSocket.lastIndex(of: "/").map { String(eventsSocket[..<$0]) } ?? "."
        self.path = directory + "/" + DefaultPaths.listenURLFile
    }

    /// The URL a client on this host uses for `address`: a listener on every interface is
    /// reached on loopback.
    static func url(for address: SocketAddress, tls: Bool) -> String? {
        guard let ip = address.ipAddress, let port = address.port else { return nil }
        let host =
            switch ip {
            case "0.0.0.0": "127.0.0.1"
            case "::": "[::1]"
            default: ip.contains(":") ? "[\(ip)]" : ip
            }
        return (tls ? "https://" : "http://") + host + ":\(port)"
    }

    /// Writes the file; a directory the daemon may not write to costs only this convenience.
    func write(_ address: SocketAddress?, tls: Bool, logger: Logger) {
        guard let address, let url = Self.url(for: address, tls: tls) else { return }
        do {
            try AtomicFile.write(Array((url + "\n").utf8), to: self.path)
        } catch {
            logger.debug("cannot write the listen URL file", metadata: [SyncmonMetadataKey.statePath: "\(self.path)", SyncmonMetadataKey.reason: "\(error)"])
        }
    }

    func remove() {
        unlink(self.path)
    }
}
