extension ShippedPacks {
    /// rclone 1.60 bisync: recorded from rclone v1.60.1 (Debian 12) on local directories
    /// (Tests/Fixtures/rules/rclone-1.60.1-bisync.log).
    static let rcloneBisync = #"""
        # rclone bisync (rclone 1.60), usually a oneshot service behind a timer.
        # Source: rclone v1.60.1 (Debian 12) recorded running here on local directories,
        # Tests/Fixtures/rules/rclone-1.60.1-bisync.log; texts from cmd/bisync/operations.go.
        # rclone puts "YYYY/MM/DD HH:MM:SS " before each line unless --log-systemd or --log-format: both taken.

        [rule run-start]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?INFO  : Synching Path1 
        emit = willFetchChanges
        emit = willSendChanges

        [rule copied]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?INFO  : .*: (?:Copied|Deleted|Moved)
        emit = sentRecordZoneChanges savedRecords=1 deletedRecords=0 failedRecordSaves=[] failedRecordDeletes=[]

        [rule run-ok]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?INFO  : Bisync successful
        emit = didFetchChanges
        emit = didSendChanges

        # Exit 2 or 7: the listings are no longer trusted; nothing syncs until someone runs --resync.
        [rule resync-required]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?(?:ERROR :|NOTICE:) Bisync (?:aborted|interrupted)\. Must run --resync to recover
        emit = error phase=export error.code=resyncRequired error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges

        # A critical error is always followed by "Must run --resync": the same failure, in its
        # more specific words, and first in the run, so its code is the one a person acts on.
        [rule critical]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?ERROR : Bisync critical error: (?<text>.*)
        emit = error phase=export error.code=resyncRequired error.message=${MESSAGE}

        # Exit 1: "retrying may help".
        [rule aborted-retryable]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?(?:ERROR :|NOTICE:) Bisync aborted\. (?:Please try again|Error is retryable)
        emit = error phase=export error.code=temporaryError error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges

        [rule other-error]
        match = ^(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d )?ERROR : (?<text>.*)
        emit = error phase=export error.code=rcloneError error.message=${MESSAGE}
        """#
}
