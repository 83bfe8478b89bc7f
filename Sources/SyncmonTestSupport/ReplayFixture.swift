import Foundation
import SyncmonCore

/// A recorded stream under `Tests/Fixtures/replay` with the status replay must reach.
///
/// The expectation format is described in `Tests/Fixtures/replay/README.md`.
public struct ReplayFixture: Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    /// The fixture directory, found from this source file so tests need no bundle resources.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/replay")

    /// Every fixture, by name.
    public static var all: [ReplayFixture] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".expect.json") }
            .map { ReplayFixture(String($0.dropLast(".expect.json".count))) }
            .sorted { $0.name < $1.name }
    }

    public var streamPath: String { Self.directory.appendingPathComponent("\(self.name).jsonl").path }

    public var description: String { self.name }

    /// The parsed `NAME.expect.json`.
    public func expectation() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("\(self.name).expect.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FixtureError("\(self.name).expect.json is not an object")
        }
        return object
    }

    /// The command-line arguments the expectation runs replay with.
    public func arguments() throws -> [String] {
        try self.expectation()["arguments"] as? [String] ?? []
    }
}

/// A fixture or its expectation is unusable.
public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
