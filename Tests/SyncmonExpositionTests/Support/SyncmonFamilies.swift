import SyncmonExposition

/// The families of docs/metrics.md, defined the way the daemon will define them, for realistic test expositions.
enum SyncmonFamilies {
    static let phases = ["setup", "import", "export"]
    static let phaseStates = ["not_started", "in_progress", "succeeded", "failed"]
    static let summaryStates = [
        "stopped", "engine_down", "no_network", "account_not_available", "error", "stalled", "throttled",
        "retrying", "not_started", "in_progress", "succeeded", "unknown",
    ]
    static let stallReasons = ["not_syncing", "no_progress", "pending_not_draining", "retry_loop", "no_recent_import", "no_recent_export"]
    static let accountStates = [
        "available", "no_account", "restricted", "could_not_determine", "temporarily_unavailable", "unknown",
    ]
    static let networkStates = ["available", "unavailable", "unknown"]
    static let durationBuckets: [Double] = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800]

    static let buildInfo = MetricFamily.info("syncmon_build_info", help: "Build information; always 1.")
    static let summary = MetricFamily.stateSet(
        "syncmon_status",
        help: "Overall sync status of each engine and database (one series per status, the current one is 1).",
        label: "status",
        states: summaryStates
    )
    static let phaseState = MetricFamily.stateSet(
        "syncmon_phase_state",
        help: "State of each phase.",
        label: "state",
        states: phaseStates
    )
    static let phaseLastStart = MetricFamily.gauge(
        "syncmon_phase_last_start_timestamp_seconds",
        help: "Unix time the phase last started; 0 if never.",
        unit: "seconds"
    )
    static let phaseLastSuccess = MetricFamily.gauge(
        "syncmon_phase_last_success_timestamp_seconds",
        help: "Unix time the phase last succeeded; 0 if never.",
        unit: "seconds"
    )
    static let phaseDuration = MetricFamily.histogram(
        "syncmon_phase_duration_seconds",
        help: "Duration of completed phase cycles.",
        buckets: durationBuckets,
        unit: "seconds"
    )
    static let phaseRuns = MetricFamily.counter("syncmon_phase_runs_total", help: "Phase cycles started.")
    static let phaseFailures = MetricFamily.counter("syncmon_phase_failures_total", help: "Phase cycles that failed.")
    static let stalled = MetricFamily.stateSet(
        "syncmon_stalled",
        help: "Stall detectors currently firing (1) or not (0), per reason.",
        label: "reason",
        states: stallReasons
    )
    static let accountStatus = MetricFamily.stateSet(
        "syncmon_account_status",
        help: "Account status as last reported by the engine.",
        label: "status",
        states: accountStates
    )
    static let networkStatus = MetricFamily.stateSet(
        "syncmon_network_status",
        help: "Network status as last reported by the engine.",
        label: "status",
        states: networkStates
    )
    static let throttledUntil = MetricFamily.gauge(
        "syncmon_throttled_until_timestamp_seconds",
        help: "Unix time until which the server asked the engine to wait; 0 when not throttled.",
        unit: "seconds"
    )
    static let pendingChanges = MetricFamily.gauge("syncmon_pending_changes", help: "Changes waiting to be sent.")
    static let errors = MetricFamily.counter("syncmon_errors_total", help: "Errors reported by the engine.")
    static let recordsFetched = MetricFamily.counter("syncmon_records_fetched_total", help: "Records fetched.")
    static let recordsSent = MetricFamily.counter("syncmon_records_sent_total", help: "Records sent.")
    static let accountChanges = MetricFamily.counter("syncmon_account_changes_total", help: "Account changes seen.")
    static let engineUp = MetricFamily.gauge("syncmon_engine_up", help: "1 if the engine is alive, else 0.")
    static let engineLastEvent = MetricFamily.gauge(
        "syncmon_engine_last_event_timestamp_seconds",
        help: "Unix time of the engine's last event.",
        unit: "seconds"
    )
    static let eventsReceived = MetricFamily.counter("syncmon_events_received_total", help: "Events received.")
    static let eventsRejected = MetricFamily.counter("syncmon_events_rejected_total", help: "Events rejected.")
    static let trackedEngines = MetricFamily.gauge("syncmon_tracked_engines", help: "Engine/database pairs tracked.")
    static let sourceUp = MetricFamily.gauge("syncmon_source_up", help: "1 if the event source is connected.")
    static let sourceReconnects = MetricFamily.counter(
        "syncmon_source_reconnects_total",
        help: "Reconnections to the event source."
    )
    static let residentMemory = MetricFamily.gauge(
        "process_resident_memory_bytes",
        help: "Resident memory size in bytes.",
        unit: "bytes"
    )
    static let cpuSeconds = MetricFamily.counter(
        "process_cpu_seconds_total",
        help: "Total user and system CPU time spent in seconds.",
        unit: "seconds"
    )
    static let startTime = MetricFamily.gauge(
        "process_start_time_seconds",
        help: "Start time of the process since unix epoch in seconds.",
        unit: "seconds"
    )
    static let openFDs = MetricFamily.gauge("process_open_fds", help: "Number of open file descriptors.")
}
