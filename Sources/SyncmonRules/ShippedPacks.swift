/// The rule packs shipped inside the binary (so they work from the .deb with no data files):
/// `--subscribe NAME=unit:UNIT?rules=PACK` names one of these.
public enum ShippedPacks {
    /// The pack names, as `rules=` and `syncmon rules test` take them.
    public static let names = ["unison", "lsyncd", "onedrive", "rclone-bisync", "nextcloudcmd"]

    /// The text of the pack called `name`.
    public static func text(named name: String) -> String? {
        switch name {
        case "unison": Self.unison
        case "lsyncd": Self.lsyncd
        case "onedrive": Self.onedrive
        case "rclone-bisync": Self.rcloneBisync
        case "nextcloudcmd": Self.nextcloudcmd
        default: nil
        }
    }

    /// The parsed pack called `name`; a shipped pack that does not parse is a bug the tests catch.
    public static func pack(named name: String) throws(RulesFile.Problem) -> RulePack? {
        guard let text = Self.text(named: name) else { return nil }
        return try RulesFile.parse(text, file: "pack \(name)")
    }

    /// Whether `reference` names a file (an absolute path) rather than a shipped pack.
    public static func isPath(_ reference: String) -> Bool {
        reference.hasPrefix("/")
    }
}
