import ArgumentParser
import FoundationEssentials
import SyncmonCore
import SyncmonHost
import SyncmonStatusAPI

/// `syncmon forget`: removes a retired engine's pairs from the running daemon's state, status
/// and /metrics (docs/operations.md#forgetting-an-engine).
///
/// The line goes through the push socket, so the daemon's peer-credential policy decides as
/// for any event; the socket is one-way, so the outcome is read from the status API before and
/// after.
struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove an engine's pairs from the running daemon (state, status, /metrics).",
        discussion: """
            Sends a forget line to the push socket for --engine (every database of it, or only \
            --database), then asks the status API (--url) whether the pairs are gone. A pair \
            forgotten comes back if its engine speaks again. The daemon's allowed-users and \
            allowed-groups apply as to events: root, or a peer allowed for that engine.

            Exit status: 0 forgotten, or nothing to forget; 1 the daemon cannot be reached on \
            its socket, or it did not forget (a peer it does not allow for that engine).
            """
    )

    @OptionGroup
    var target: EngineTargetOptions

    @Option(help: "The daemon's status API, to confirm: http://host:port or https://host:port.")
    var url = StatusClient.defaultURL()

    @Option(help: ArgumentHelp("The basic-auth user for --url; the password comes from $SYNCMON_PASSWORD.", valueName: "name"))
    var user: String?

    /// How long the daemon has to confirm.
    static let confirmation = Duration.seconds(5)

    func run() async throws {
        // `host:port` is `http://host:port`, as for `syncmon status`.
        let client = StatusClient(
            url: StatusClient.withScheme(self.url),
            options: HTTPGetClient.Options(
                user: self.user,
                password: ProcessInfo.processInfo.environment["SYNCMON_PASSWORD"],
                timeout: .seconds(5)
            )
        )
        let named = self.target.database.map { "\(self.target.engine)/\($0)" } ?? "engine \(self.target.engine)"
        let before: [String]
        do {
            before = try await self.tracked(client)
        } catch {
            // No status API (no --listen, or another address): send anyway, unconfirmed.
            try self.send()
            print("syncmon forget: sent forget for \(named) to \(self.target.socketPath); not confirmed: \(error)")
            return
        }
        guard !before.isEmpty else {
            print("syncmon forget: \(named) is not tracked by the daemon at \(self.url); nothing to forget")
            return
        }
        try self.send()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.confirmation)
        var left = before
        while clock.now < deadline {
            left = (try? await self.tracked(client)) ?? left
            if left.isEmpty {
                print("syncmon forget: forgot \(before.joined(separator: ", "))")
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        printError(
            "syncmon forget: the daemon still tracks \(left.joined(separator: ", ")) after \(Self.confirmation): "
                + "it refuses forget for \(self.target.engine) from this user (allowed-users / allowed-groups of [engine \(self.target.engine)]), "
                + "or the engine spoke again at once")
        throw ExitCode(1)
    }

    /// The pairs the daemon tracks that this forget names, as `engine/database`.
    private func tracked(_ client: StatusClient) async throws -> [String] {
        let document = try await client.fetch(engine: self.target.engine).document
        return document.engines.map(\.key).filter { key in
            key.engine.description == self.target.engine && self.target.database.map { key.database.description == $0 } ?? true
        }.map { "\($0.engine)/\($0.database)" }
    }

    /// Writes the forget line to the push socket.
    private func send() throws {
        do {
            let line = try EmitCommand.line(engine: self.target.engine, database: self.target.database, type: "forget", fields: [], now: WallClock.now())
            try UnixSocketWriter.send(Array((line + "\n").utf8), to: self.target.socketPath)
        } catch {
            printError("syncmon forget: \(error)")
            throw ExitCode(1)
        }
    }
}
