import Foundation
import SyncmonSystemd
import SyncmonTestSupport
import Testing

/// `deploy/catalog/syncmon.catalog` against ``MessageID``: one catalog entry per ID, no more, no fewer.
@Suite("Message catalog")
struct MessageCatalogTests {
    /// One `-- <id>` entry of the catalog, with its header fields.
    struct CatalogEntry {
        /// The 128-bit ID after `-- `.
        var id: String
        /// The `Key: value` header lines before the first blank line.
        var headers: [String: String]
        /// The text after the headers.
        var body: String
    }

    /// The catalog's path inside the package.
    static let catalogPath = "deploy/catalog/syncmon.catalog"

    /// The catalog's entries, parsed the way journalctl does: `-- ` starts an entry, headers until a blank line.
    static func catalogEntries() throws -> [CatalogEntry] {
        let text = try String(contentsOf: try PackageRoot.file(Self.catalogPath), encoding: .utf8)
        var entries: [CatalogEntry] = []
        var inHeaders = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("-- ") {
                // An optional language tag may follow the ID ("-- <id> de").
                let id = line.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
                entries.append(CatalogEntry(id: id, headers: [:], body: ""))
                inHeaders = true
            } else if var entry = entries.popLast() {
                if inHeaders && line.isEmpty {
                    inHeaders = false
                } else if inHeaders, let colon = line.firstIndex(of: ":") {
                    entry.headers[String(line[..<colon])] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                } else {
                    entry.body += line + "\n"
                }
                entries.append(entry)
            }
        }
        return entries
    }

    @Test("every MessageID has a catalog entry and every entry a MessageID")
    func catalogMatchesCode() throws {
        let catalogIDs = try Self.catalogEntries().map(\.id)
        let codeIDs = MessageID.allCases.map(\.rawValue)
        #expect(Set(catalogIDs) == Set(codeIDs))
        #expect(catalogIDs.count == Set(catalogIDs).count, "an ID appears twice in the catalog")
        for id in codeIDs where !catalogIDs.contains(id) {
            Issue.record("\(MessageID(rawValue: id).map { "\($0)" } ?? id) (\(id)) has no catalog entry")
        }
    }

    @Test("IDs are distinct 128-bit lowercase hex")
    func idFormat() {
        let ids = MessageID.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, "\(id)")
        }
    }

    @Test("each entry has a subject, Defined-By: syncmon, a support line and a body")
    func entryHeaders() throws {
        for entry in try Self.catalogEntries() {
            #expect(entry.headers["Subject"]?.isEmpty == false, "\(entry.id)")
            #expect(entry.headers["Defined-By"] == "syncmon", "\(entry.id)")
            #expect(entry.headers["Support"]?.isEmpty == false, "\(entry.id)")
            #expect(!entry.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(entry.id)")
        }
    }

    @Test("field substitutions name only SYNCMON_ fields journald accepts")
    func substitutions() throws {
        for entry in try Self.catalogEntries() {
            let text = (entry.headers["Subject"] ?? "") + entry.body
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            // Between pairs of @: odd-numbered parts are field names.
            #expect(parts.count % 2 == 1, "unbalanced @ in \(entry.id)")
            for (index, part) in parts.enumerated() where index % 2 == 1 {
                #expect(part.hasPrefix("SYNCMON_") && JournalFieldName(String(part)) != nil, "@\(part)@ in \(entry.id)")
            }
        }
    }

    @Test("journalctl accepts the catalog and lists every ID")
    func journalctlAcceptsCatalog() async throws {
        guard let journalctl = ExternalCommand.find("journalctl") else {
            // Under CI (scripts/test.sh sets CI) the test dependencies were just installed: a
            // missing journalctl is a broken setup, not a reason to skip.
            if ProcessInfo.processInfo.environment["CI"].map({ !$0.isEmpty }) ?? false {
                Issue.record("journalctl is required when CI is set: apt-get install systemd")
                return
            }
            try Test.cancel("journalctl is not installed (apt-get install systemd); cannot check the catalog with it")
        }
        // A private root: --update-catalog writes its database under it, never into the host's /var/lib/systemd.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("syncmon-catalog-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let catalogDirectory = root.appendingPathComponent("usr/lib/systemd/catalog")
        try FileManager.default.createDirectory(at: catalogDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try PackageRoot.file(Self.catalogPath),
            to: catalogDirectory.appendingPathComponent("syncmon.catalog")
        )

        let update = try await ExternalCommand.run(journalctl, ["--root=\(root.path)", "--update-catalog"])
        #expect(update.status == 0, "\(update.errors)")
        let list = try await ExternalCommand.run(journalctl, ["--root=\(root.path)", "--list-catalog"])
        #expect(list.status == 0, "\(list.errors)")
        let listed = Set(list.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(listed == Set(MessageID.allCases.map(\.rawValue)))
        #expect(list.output.split(separator: "\n").allSatisfy { $0.contains(" syncmon: ") })
    }
}
