extension ShippedPacks {
    /// lsyncd 2.2.3 with `default.rsync`: recorded from lsyncd 2.2.3 (Debian 12) run with
    /// `-nodaemon` (Tests/Fixtures/rules/lsyncd-2.2.3-nodaemon.log).
    static let lsyncd = #"""
        # lsyncd 2.2.3 with default.rsync: every transfer is an export.
        # Source: lsyncd 2.2.3 (Debian 12) recorded running here with -nodaemon,
        # Tests/Fixtures/rules/lsyncd-2.2.3-nodaemon.log. Under -nodaemon lsyncd puts "HH:MM:SS " before each
        # line; Debian's lsyncd.service logs through syslog without it: every rule takes both.

        # The first full rsync after a start.
        [rule startup-begin]
        match = ^(?:\d\d:\d\d:\d\d )?Normal: recursive startup rsync:
        emit = willSendChanges

        [rule startup-done]
        match = ^(?:\d\d:\d\d:\d\d )?Normal: Startup of .* finished\.
        emit = didSendChanges

        # The first rsync failed; lsyncd (insist) retries it.
        [rule startup-retry]
        match = ^(?:\d\d:\d\d:\d\d )?Normal: Retrying startup of .*: (?<code>[0-9]+)$
        emit = error phase=export error.code=rsyncExit${code} error.message=${MESSAGE}
        emit = didSendChanges

        # A batch of changed paths handed to rsync.
        [rule transfer-begin]
        match = ^(?:\d\d:\d\d:\d\d )?Normal: Calling rsync with
        emit = willSendChanges

        # rsync's 0 and 24 (files vanished before they could be copied) are successes.
        [rule transfer-done]
        match = ^(?:\d\d:\d\d:\d\d )?Normal: Finished (?:a list|.*) after exitcode: (?:0|24)$
        emit = didSendChanges

        [rule transfer-failed]
        match = ^(?:\d\d:\d\d:\d\d )?Normal: Finished (?:a list|.*) after exitcode: (?<code>[0-9]+)$
        emit = error phase=export error.code=rsyncExit${code} error.message=${MESSAGE}
        emit = didSendChanges

        # lsyncd's own errors (configuration, target unreachable at startup, …).
        [rule lsyncd-error]
        match = ^(?:\d\d:\d\d:\d\d )?Error: (?<text>.*)
        emit = error phase=export error.code=lsyncdError error.message=${MESSAGE}
        """#
}
