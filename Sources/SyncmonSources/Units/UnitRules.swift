import SyncmonLock
import SyncmonRules

/// The rules of one `unit:` source (docs/systemd-units.md): a shipped pack, or a rules file that SIGHUP
/// reads again — swapped in when it changed and is valid, kept when it has a problem.
///
/// Read by the source's thread once per batch of journal entries, replaced by the reload.
package final class UnitRules: Sendable {
    /// A shipped pack's name or a rules file's absolute path.
    package let reference: String
    /// The running rules and, for a file, the text they came from.
    private let running: Locked<(pack: RulePack, text: String?)>

    /// Loads and checks the rules `reference` names; a problem names the file and line.
    package init(reference: String) throws(RulesFile.Problem) {
        self.reference = reference
        self.running = Locked(try RulesLoader.loadWithText(reference))
    }

    /// The rules in force.
    package var current: RulePack { self.running.withLock { $0.pack } }

    /// Reads a rules file again: its rules replace the running ones when it changed and is
    /// valid. A shipped pack is part of the binary and never changes.
    package func reload() -> RulesReload {
        guard ShippedPacks.isPath(self.reference), let runningText = self.running.withLock({ $0.text }) else { return .unchanged }
        let text: String
        do {
            text = try RulesLoader.read(self.reference)
        } catch {
            return .kept(error)
        }
        let outcome = RulesReload.of(file: self.reference, runningText: runningText, text: text)
        if case .replaced(let pack, let text) = outcome { self.running.withLock { $0 = (pack, text) } }
        return outcome
    }
}
