extension ShippedPacks {
    /// nextcloudcmd 3.7: its failures recorded from nextcloudcmd 3.7.3 (Debian 12) against servers it
    /// cannot use (Tests/Fixtures/rules/nextcloudcmd-3.7.3-failures.log); its success lines from
    /// its source, src/cmd/cmd.cpp (the SyncEngine::finished and syncError handlers).
    static let nextcloudcmd = #"""
        # nextcloudcmd (Nextcloud desktop 3.7), one run per activation, usually a oneshot behind a timer.
        # Source: failures recorded from nextcloudcmd 3.7.3 (Debian 12) here,
        # Tests/Fixtures/rules/nextcloudcmd-3.7.3-failures.log; other lines from src/cmd/cmd.cpp:
        # qWarning "Failed to sync", "Sync error:", "Another sync is needed, but not done because restart count
        # is exceeded", qDebug "Restarting Sync, because another sync is needed". Qt prefixes
        # "MM-DD HH:MM:SS:mmm [ level category ]:\t" to its log lines; plain lines have none.

        [rule server-unreachable]
        match = ^Error connecting to server for status
        emit = networkStatus available=false
        emit = error phase=import error.code=networkFailure error.message=${MESSAGE}

        [rule sync-error]
        match = Sync error: (?<text>.*)
        emit = error phase=import error.code=syncError error.message=${MESSAGE}

        [rule sync-failed]
        match = Failed to sync$
        emit = error phase=import error.code=syncFailed error.message=${MESSAGE}
        emit = didFetchChanges
        emit = didSendChanges

        [rule restart-exceeded]
        match = Another sync is needed, but not done because restart count is exceeded
        emit = error phase=export error.code=restartCountExceeded error.message=${MESSAGE}
        """#
}
