import SyncmonCore
import SyncmonExposition

extension MetricsRenderer {
    /// The per-pair families' lines around each pair's `engine`/`database` labels, rendered once
    /// (``SeriesLines``): a line is then three plain copies and its value. Extras are in the
    /// order of their enum's cases, so a case's `rawValue` picks its tail or group.
    enum Lines {
        static let summary = SeriesLines(Families.summary)
        static let phaseState = SeriesLines(Families.phaseState, extras: Labels.phases)
        static let lastStart = SeriesLines(Families.lastStart, extras: Labels.phases)
        static let lastSuccess = SeriesLines(Families.lastSuccess, extras: Labels.phases)
        static let duration = HistogramLines(Families.duration, extras: Labels.phases)
        static let runs = SeriesLines(Families.runs, extras: Labels.phases)
        static let failures = SeriesLines(Families.failures, extras: Labels.phases)
        static let stalled = SeriesLines(Families.stalled)
        static let account = SeriesLines(Families.account)
        static let network = SeriesLines(Families.network)
        static let throttledUntil = SeriesLines(Families.throttledUntil)
        /// Tail 0 `kind="record_zone"`, tail 1 `kind="database"`.
        static let pending = SeriesLines(Families.pending, extras: [Labels.recordZone, Labels.database])
        /// Without extras: each sample brings its `phase`/`class`/`code` labels.
        static let errors = SeriesLines(Families.errors)
        /// Tail 0 `change="modification"`, tail 1 `change="deletion"`.
        static let fetched = SeriesLines(Families.fetched, extras: [Labels.modification, Labels.deletion])
        /// Tail 0 `op="save"`, tail 1 `op="delete"`.
        static let sent = SeriesLines(Families.sent, extras: [Labels.save, Labels.delete])
        static let accountChanges = SeriesLines(Families.accountChanges, extras: Labels.accountChanges)
        static let up = SeriesLines(Families.up)
        static let lastEvent = SeriesLines(Families.lastEvent)
        /// Without extras: each sample brings its `peer` label.
        static let canaryRoundTrip = SeriesLines(CanaryFamilies.roundTrip)
        static let canaryLastMoved = SeriesLines(CanaryFamilies.lastMoved)
        static let canaryPeers = SeriesLines(CanaryFamilies.peers)
        static let canaryErrors = SeriesLines(CanaryFamilies.errors, extras: CanaryFamilies.reasons)
    }
}
