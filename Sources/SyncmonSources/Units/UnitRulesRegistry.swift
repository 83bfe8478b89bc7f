import Logging
import SyncmonLock
import SyncmonRules
import SyncmonSystemd

/// Every `unit:` source's rules, reloaded together on SIGHUP (docs/systemd-units.md), and the count of
/// reloads that found a rules file with a problem (`syncmon_rules_reload_failures_total`).
package final class UnitRulesRegistry: Sendable {
    private let all: [UnitRules]
    private let failures = Locked<UInt64>(0)

    package init(_ rules: [UnitRules] = []) {
        self.all = rules
    }

    /// Reloads that kept a source's running rules because its file had a problem.
    package var failedReloads: UInt64 { self.failures.withLock { $0 } }

    /// Reads every rules file again; logs what each reload did: a problem as an error naming
    /// `file:line`, the running rules kept.
    package func reload(logger: Logger) {
        for rules in self.all {
            switch rules.reload() {
            case .unchanged:
                break
            case .replaced(let pack, _):
                logger.notice("rules file \(rules.reference) reloaded: \(pack.rules.count) rules")
            case .kept(let problem):
                self.failures.withLock { $0 += 1 }
                logger.error(
                    "rules reload failed, the running rules stay: \(problem)",
                    metadata: [SyncmonMetadataKey.configPath: "\(problem.file)", SyncmonMetadataKey.reason: "\(problem)"]
                )
            }
        }
    }
}
