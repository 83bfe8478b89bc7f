extension StatusDocument {
    /// The document as JSON text, ending with a newline: keys sorted, for an order that is the
    /// same on every run (diffs, people reading it), indented when `pretty`. The wire form is
    /// docs/protocol.md "Status JSON"; every key below is written in sorted order.
    public func json(pretty: Bool = true) -> [UInt8] {
        // About 700 bytes a plain row, pretty: one reservation for the usual document.
        var writer = StatusJSONWriter(pretty: pretty, capacity: 1_024 + self.engines.count * (pretty ? 900 : 500))
        writer.openObject()
        writer.key("engines")
        writer.openArray()
        for row in self.engines {
            writer.element()
            row.write(to: &writer)
        }
        writer.closeArray()
        writer.key("now")
        writer.time(self.now)
        if let sources = self.sources {
            writer.key("sources")
            writer.openArray()
            for source in sources {
                writer.element()
                source.write(to: &writer)
            }
            writer.closeArray()
        }
        if let stateSave = self.stateSave {
            writer.key("stateSave")
            writer.openObject()
            writer.key("failingInARow")
            writer.integer(stateSave.failingInARow)
            writer.key("failures")
            writer.integer(stateSave.failures)
            writer.key("lastSave")
            writer.time(stateSave.lastSave)
            writer.closeObject()
        }
        writer.closeObject()
        var bytes = writer.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

extension StatusRow {
    /// The row's object. The state file stores the same enums as numbers; the document names
    /// them by their labels, and a phase's object carries its outstanding failure beside its state.
    fileprivate func write(to writer: inout StatusJSONWriter) {
        writer.openObject()
        writer.key("account")
        writer.string(self.account.description)
        if let canary = self.canary {
            writer.key("canary")
            canary.write(to: &writer)
        }
        writer.key("database")
        writer.name(self.key.database.name)
        writer.key("engine")
        writer.name(self.key.engine)
        writer.key("export")
        self.writePhase(.export, to: &writer)
        writer.key("import")
        self.writePhase(.import, to: &writer)
        writer.key("lastEvent")
        writer.time(self.lastEvent)
        writer.key("network")
        writer.string(self.network.description)
        writer.key("pending")
        writer.openObject()
        writer.key("database")
        writer.integer(self.pendingDatabaseChanges)
        writer.key("recordZone")
        writer.integer(self.pendingRecordZoneChanges)
        writer.closeObject()
        writer.key("setup")
        self.writePhase(.setup, to: &writer)
        writer.key("stalled")
        writer.openArray()
        for stall in self.stalls {
            writer.element()
            writer.string(stall.description)
        }
        writer.closeArray()
        writer.key("summary")
        writer.string(self.summary.description)
        // Always present, null once the throttle has passed.
        writer.key("throttledUntil")
        writer.time(self.throttledUntil)
        if let unknownReason = self.unknownReason {
            writer.key("unknownReason")
            writer.string(unknownReason)
        }
        writer.key("up")
        writer.boolean(self.up)
        writer.closeObject()
    }

    /// A phase's object: its state with its times and error, and the failure a retry in
    /// progress still has, whatever the state.
    private func writePhase(_ phase: Phase, to writer: inout StatusJSONWriter) {
        let state = self[phase]
        writer.openObject()
        switch state {
        case .notStarted, .inProgress:
            break
        case .succeeded(_, let ended), .failed(_, let ended, _):
            writer.key("ended")
            writer.time(ended)
        }
        if case .failed(_, _, let error) = state {
            writer.key("error")
            error.write(to: &writer)
        }
        if let failing = self.failing(phase) {
            writer.key("failing")
            writer.openObject()
            writer.key("error")
            failing.error.write(to: &writer)
            writer.key("since")
            writer.time(failing.since)
            writer.closeObject()
        }
        switch state {
        case .notStarted:
            break
        case .inProgress(let started), .succeeded(let started, _), .failed(let started, _, _):
            writer.key("started")
            writer.time(started)
        }
        writer.key("state")
        writer.string(state.name.description)
        writer.closeObject()
    }
}

extension SourceStatus {
    /// `lastError` is always there, null while the source never failed.
    fileprivate func write(to writer: inout StatusJSONWriter) {
        writer.openObject()
        writer.key("kind")
        writer.string(self.kind)
        writer.key("lastError")
        if let lastError = self.lastError { writer.string(lastError) } else { writer.null() }
        writer.key("name")
        writer.string(self.name)
        writer.key("reconnects")
        writer.integer(self.reconnects)
        writer.key("since")
        writer.time(self.since)
        writer.key("state")
        writer.string(self.state.description)
        writer.closeObject()
    }
}

extension PhaseError {
    /// `class`, `code` and the engine's own words (absent when it sent none).
    fileprivate func write(to writer: inout StatusJSONWriter) {
        writer.openObject()
        writer.key("class")
        writer.string(self.errorClass.description)
        writer.key("code")
        writer.string(self.code.description)
        if let message = self.message {
            writer.key("message")
            writer.string(message)
        }
        writer.closeObject()
    }
}

extension CanaryStatus {
    /// The error reasons in the order of their labels' bytes, as sorted keys come.
    private static let reasonsByLabel = CanaryErrorReason.allCases.sorted { $0.description.utf8.lexicographicallyPrecedes($1.description.utf8) }

    /// Times as RFC 3339, lateness as `late` (a boolean) with the rule beside it
    /// (`lateReason`), errors by their label.
    fileprivate func write(to writer: inout StatusJSONWriter) {
        writer.openObject()
        writer.key("error")
        if let error = self.error { writer.string(error) } else { writer.null() }
        writer.key("errors")
        writer.openObject()
        for reason in Self.reasonsByLabel {
            writer.key(reason.description)
            writer.integer(self.errors[reason])
        }
        writer.closeObject()
        writer.key("host")
        writer.string(self.host.description)
        writer.key("lateAfterSeconds")
        writer.number(self.lateAfter.seconds)
        writer.key("peers")
        writer.openArray()
        for peer in self.peers {
            writer.element()
            writer.openObject()
            writer.key("host")
            writer.string(peer.host.description)
            writer.key("lastMoved")
            writer.time(peer.lastMoved)
            writer.key("late")
            writer.boolean(peer.late != nil)
            if let late = peer.late {
                writer.key("lateReason")
                writer.string(late.description)
            }
            writer.key("roundTripSeconds")
            if let seconds = peer.roundTripSeconds { writer.number(seconds) } else { writer.null() }
            writer.key("seq")
            writer.integer(peer.seq)
            writer.closeObject()
        }
        writer.closeArray()
        writer.key("seq")
        writer.integer(self.seq)
        writer.closeObject()
    }
}
