extension ShippedPacks {
    /// abraunegg's OneDrive client (`onedrive --monitor`): from the messages of its source,
    /// src/main.d, src/onedrive.d and src/sync.d at e7931933 (a sync needs a Microsoft account,
    /// so nothing was recorded here).
    static let onedrive = #"""
        # onedrive --monitor (abraunegg/onedrive), as onedrive@.service runs it.
        # Source: the client's messages in its source at e7931933: src/main.d displaySyncOutcome (l. 2008-2050),
        # the monitor loop (l. 1404), the reachability test (l. 699), the --resync checks (l. 639, 954);
        # src/onedrive.d l. 2724; src/sync.d l. 4599, 5035. Lines written to the journal carry no timestamp.

        [rule sync-start]
        match = ^Starting a sync with Microsoft OneDrive
        emit = willFetchChanges
        emit = willSendChanges

        [rule sync-complete]
        match = ^Sync with Microsoft OneDrive is complete
        emit = networkStatus available=true
        emit = didFetchChanges
        emit = didSendChanges

        [rule sync-items-failed]
        match = ^Sync with Microsoft OneDrive has completed, however there are items that failed to sync
        emit = error phase=import error.code=itemsFailed error.message=${MESSAGE}
        emit = error phase=export error.code=itemsFailed error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges

        [rule download-done]
        match = ^Downloading file: .* \.\.\. done
        emit = fetchedRecordZoneChanges modifications=1 deletions=0

        [rule upload-done]
        match = ^Uploading (?:new |modified )?file: .* \.\.\. done
        emit = sentRecordZoneChanges savedRecords=1 deletedRecords=0 failedRecordSaves=[] failedRecordDeletes=[]

        # The client stops syncing until it is run once with --resync (exit 78 when it gives up).
        [rule resync-required]
        match = where a --resync is required
        emit = error phase=setup error.code=resyncRequired error.message=${MESSAGE}

        [rule offline]
        match = ^(?:Unable to reach the Microsoft OneDrive API service at this point in time|Internet connectivity to Microsoft OneDrive service has been interrupted)
        emit = networkStatus available=false

        [rule client-error]
        match = ^ERROR: (?<text>.*)
        emit = error phase=import error.code=onedriveError error.message=${MESSAGE}
        """#
}
