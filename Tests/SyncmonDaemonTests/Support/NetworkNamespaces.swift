import Foundation
import SyncmonTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two network namespaces joined by a veth pair, for running the daemon where the test controls
/// the default route and the link: `host` has `10.213.0.1/30` on `link` and a default route via
/// `10.213.0.2`, the `gateway` namespace's end (`peer`). No address exists outside them, and
/// nothing sends a packet anywhere. Removed with `remove()` (the veth goes with its namespaces).
final class NetworkNamespaces: @unchecked Sendable {
    let host: String
    let gateway: String
    let link: String
    let peer: String
    let ip: String

    /// Namespaces need root and `ip` (iproute2). Under CI both are given (scripts/test.sh runs as
    /// root and installs iproute2): missing is a failure there, a skip elsewhere.
    static func requirements() throws -> String? {
        guard let ip = ExternalCommand.find("ip") else {
            if ExternalCommand.isCI { Issue.record("ip (iproute2) is required when CI is set: scripts/install-deps.sh --test"); return nil }
            try Test.cancel("ip (iproute2) is not installed")
        }
        guard getuid() == 0 else {
            if ExternalCommand.isCI { Issue.record("network namespace tests need root when CI is set"); return nil }
            try Test.cancel("network namespaces need root")
        }
        return ip
    }

    init(ip: String) async throws {
        // Short unique names: interface names have at most 15 bytes.
        let tag = String(UInt32.random(in: 0..<UInt32.max), radix: 36)
        self.ip = ip
        self.host = "smh-\(tag)"
        self.gateway = "smg-\(tag)"
        self.link = "smv\(tag)"
        self.peer = "smp\(tag)"
        do {
            try await self.run(["netns", "add", self.host])
            try await self.run(["netns", "add", self.gateway])
            try await self.run(["-n", self.host, "link", "set", "lo", "up"])
            try await self.run(["link", "add", self.link, "netns", self.host, "type", "veth", "peer", "name", self.peer, "netns", self.gateway])
            try await self.run(["-n", self.host, "address", "add", "10.213.0.1/30", "dev", self.link])
            try await self.run(["-n", self.gateway, "address", "add", "10.213.0.2/30", "dev", self.peer])
            try await self.run(["-n", self.gateway, "link", "set", self.peer, "up"])
            try await self.run(["-n", self.host, "link", "set", self.link, "up"])
            try await self.addDefaultRoute()
        } catch {
            self.remove()
            throw error
        }
    }

    /// `ip ARGUMENTS…`, which must succeed.
    func run(_ arguments: [String]) async throws {
        let result = try await ExternalCommand.run(self.ip, arguments)
        guard result.status == 0 else { throw TestSupportError("ip \(arguments.joined(separator: " ")) exited \(result.status): \(result.combined)") }
    }

    /// `ip netns exec HOST COMMAND…` in the host namespace.
    func exec(_ command: [String]) async throws -> ExternalCommand.Result {
        try await ExternalCommand.run(self.ip, ["netns", "exec", self.host] + command)
    }

    func addDefaultRoute() async throws { try await self.run(["-n", self.host, "route", "add", "default", "via", "10.213.0.2", "dev", self.link]) }
    func removeDefaultRoute() async throws { try await self.run(["-n", self.host, "route", "del", "default"]) }
    func setLink(up: Bool) async throws { try await self.run(["-n", self.host, "link", "set", self.link, up ? "up" : "down"]) }

    /// A script that runs the given binary inside the host namespace (`DaemonProcess`'s
    /// `executable`): `ip netns exec` ends in exec, so the daemon keeps the script's pid and
    /// gets the test's signals.
    func wrapper(for binary: String, in directory: String) throws -> String {
        let path = directory + "/in-namespace.sh"
        try "#!/bin/sh\nexec \(self.ip) netns exec \(self.host) \(binary) \"$@\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    func remove() {
        _ = try? ExternalCommand.runBlocking(self.ip, ["netns", "del", self.host])
        _ = try? ExternalCommand.runBlocking(self.ip, ["netns", "del", self.gateway])
    }
}
