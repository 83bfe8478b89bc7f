import ArgumentParser
import FoundationEssentials
import SyncmonStatusAPI

/// `syncmon notify`: the running daemon's notification routes (docs/notifications.md).
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Test and list the running daemon's notification routes ([notify NAME] sections).",
        subcommands: [NotifyTestCommand.self, NotifyListCommand.self]
    )
}

/// Where the daemon listens and how to reach it, shared by the `notify` subcommands.
struct NotifyDaemonOptions: ParsableArguments {
    @Option(help: "The daemon's address: host:port, http://host:port, or https://host:port when its web configuration serves TLS.")
    var url = "http://127.0.0.1:9478"

    @Option(name: .customLong("ca-file"), help: ArgumentHelp("PEM certificates to trust for an https:// --url.", valueName: "path"))
    var caFile: String?

    @Option(help: ArgumentHelp("The basic-auth user; the password comes from $SYNCMON_PASSWORD.", valueName: "name"))
    var user: String?

    /// A client for the daemon, with a deadline of `timeout`.
    func client(timeout: Duration) throws -> (HTTPGetClient, String) {
        let options = HTTPGetClient.Options(
            caFile: self.caFile, user: self.user, password: ProcessInfo.processInfo.environment["SYNCMON_PASSWORD"], timeout: timeout)
        var base = StatusClient.withScheme(self.url)
        while base.hasSuffix("/") { base.removeLast() }
        return (try HTTPGetClient(options: options), base)
    }
}

/// `syncmon notify test ROUTE`: a test notification through one route, at once.
struct NotifyTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Ask the running daemon to send a test notification through ROUTE.",
        discussion: """
            The test goes out at once, outside the route's rules (hold, group, rate-limit), with \
            SYNCMON_EVENT=test. Exit status: 0 delivered; 1 failed (the reason printed: the \
            command's exit status and last stderr line, the MTA's answer, the HTTP status) or the \
            daemon cannot be reached; 2 no route of that name.
            """
    )

    @Argument(help: "The route: the NAME of a [notify NAME] section.")
    var route: String

    @OptionGroup var daemon: NotifyDaemonOptions

    /// `text` for a query value: the unreserved characters as they are, every other byte as
    /// `%XX` (a route name never needs it; whatever was typed still reaches the daemon whole).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func run() async throws {
        // The route's own timeout bounds the delivery; the request waits a little longer.
        let (client, base) = try self.daemon.client(timeout: .seconds(330))
        let encoded = Self.percentEncoded(self.route)
        let response: HTTPGetClient.Response
        do {
            response = try await client.post(base + "/api/v1/notify/test?route=" + encoded)
            await client.shutdown()
        } catch {
            await client.shutdown()
            printError("syncmon notify test: cannot reach the daemon at \(base): \(error)")
            throw ExitCode(1)
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: Data(response.body))
        switch (response.statusCode, answer?.outcome) {
        case (200, "delivered"):
            print("syncmon notify test: delivered through \(self.route)")
        case (404, "unknown_route"):
            printError("syncmon notify test: no route named \(self.route) (see syncmon notify list)")
            throw ExitCode(2)
        case (_, "failed"):
            printError("syncmon notify test: \(self.route) failed: \(answer?.reason ?? "no reason given")")
            throw ExitCode(1)
        default:
            printError("syncmon notify test: the daemon answered \(response.statusLine)")
            throw ExitCode(1)
        }
    }

    /// `POST /api/v1/notify/test`'s answer.
    struct Answer: Decodable {
        var outcome: String
        var reason: String?
    }
}

/// `syncmon notify list`: each route, its counts and what it owes.
struct NotifyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the running daemon's notification routes, their counts and what each owes.",
        discussion: "--json prints GET /api/v1/notify's JSON. Exit status 0 when the daemon answered, 1 when it cannot be reached."
    )

    @Flag(help: "Print GET /api/v1/notify's JSON.")
    var json = false

    @OptionGroup var daemon: NotifyDaemonOptions

    func run() async throws {
        let (client, base) = try self.daemon.client(timeout: .seconds(5))
        let response: HTTPGetClient.Response
        do {
            response = try await client.get(base + "/api/v1/notify", accept: "application/json")
            await client.shutdown()
        } catch {
            await client.shutdown()
            printError("syncmon notify list: cannot reach the daemon at \(base): \(error)")
            throw ExitCode(1)
        }
        guard response.statusCode == 200, let list = try? JSONDecoder().decode(List.self, from: Data(response.body)) else {
            printError("syncmon notify list: the daemon answered \(response.statusLine)")
            throw ExitCode(1)
        }
        if self.json {
            print(String(decoding: response.body, as: UTF8.self), terminator: "")
            return
        }
        if list.routes.isEmpty { print("no notification routes ([notify NAME] sections) configured") }
        for route in list.routes {
            let last = route.lastSuccess.map { ", last delivered \($0)" } ?? ""
            print("\(route.name) (\(route.target)): \(route.sent) sent, \(route.failed) failed, \(route.dropped) dropped, \(route.firing) firing\(last)")
            for owed in route.owed {
                print("  owes \(owed.event) for \(owed.pairs.joined(separator: ", ")) (\(owed.failures) failed, next try \(owed.nextAttempt))")
            }
        }
    }

    /// `GET /api/v1/notify`'s answer, as far as it is printed.
    struct List: Decodable {
        var routes: [Route]

        /// One route.
        struct Route: Decodable {
            var name: String
            var target: String
            var sent: Int
            var failed: Int
            var dropped: Int
            var firing: Int
            var owed: [Owed]
            var lastSuccess: String?
        }

        /// One notification owed.
        struct Owed: Decodable {
            var event: String
            var pairs: [String]
            var failures: Int
            var nextAttempt: String
        }
    }
}
