import SyncmonCore

/// Why a fetch or send cycle runs (`reason`): CKSyncEngine's scheduled syncs or an explicit
/// `fetchChanges()` / `sendChanges()`.
public enum SyncReason: String, Sendable, Hashable, CaseIterable {
    case scheduled
    case manual
}
