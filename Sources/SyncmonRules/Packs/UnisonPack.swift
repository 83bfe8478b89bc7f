extension ShippedPacks {
    /// unison 2.52 with `-repeat`: recorded from unison 2.52.1 (Debian 12) syncing two local
    /// directories (Tests/Fixtures/rules/unison-2.52.1-repeat.log).
    static let unison = #"""
        # unison -repeat N (or -repeat watch), as a service: one line per step of each cycle.
        # Source: unison 2.52.1 (Debian 12) recorded running here, Tests/Fixtures/rules/unison-2.52.1-repeat.log;
        # the texts are unison's src/uitext.ml. Progress lines start with "\r" runs ("100%  00:00 ETA\r   \r"),
        # so the rules that follow them are not anchored at the start.

        # Every cycle begins by scanning both replicas.
        [rule cycle-start]
        match = ^Looking for changes$
        emit = willFetchChanges
        emit = willSendChanges

        # The idle cycle: no summary line, only this.
        [rule nothing-to-do]
        match = Nothing to do: replicas have not changed since last sync
        emit = didFetchChanges
        emit = didSendChanges

        # A file or directory copied, deleted or updated: progress inside the open cycle.
        [rule transferred]
        match = \[END\] (?:Copying|Deleting|Updating|Copying properties for)
        emit = sentRecordZoneChanges savedRecords=1 deletedRecords=0 failedRecordSaves=[] failedRecordDeletes=[]

        # Conflicts that -batch leaves for a person: unison says "complete" and exits 1 (a -repeat
        # loop runs on), the skipped files stay apart until someone decides, so the cycle fails.
        # Recorded: "Synchronization complete at 14:47:23  (1 item transferred, 1 skipped, 0 failed)".
        # Before cycle-complete, which would take it for a clean cycle.
        [rule cycle-skipped]
        match = ^Synchronization (?:complete|incomplete) at \S+\s+\((?<transferred>[0-9]+) items? transferred, (?<skipped>[1-9][0-9]*) skipped, 0 failed\)
        emit = error phase=import error.code=conflictsSkipped error.message=${MESSAGE}
        emit = error phase=export error.code=conflictsSkipped error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges
        [rule cycle-complete]
        match = ^Synchronization complete at
        emit = didFetchChanges
        emit = didSendChanges

        # Transfers failed: the cycle fails until one completes.
        [rule cycle-failed]
        match = ^Synchronization incomplete at \S+\s+\((?<transferred>[0-9]+) items? transferred, (?<skipped>[0-9]+) skipped, (?<failed>[1-9][0-9]*) failed\)
        emit = error phase=import error.code=syncIncomplete error.message=${MESSAGE}
        emit = error phase=export error.code=syncIncomplete error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges


        [rule cycle-fatal]
        match = ^Synchronization (?:failed|interrupted) at
        emit = error phase=import error.code=syncFailed error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges

        # A fatal error ends unison (exit 3): systemd reports the exit; this keeps unison's words.
        [rule fatal-error]
        match = ^Fatal error: (?<reason>.*)
        emit = error phase=setup error.code=unisonFatal error.message=${MESSAGE}
        """#
}
