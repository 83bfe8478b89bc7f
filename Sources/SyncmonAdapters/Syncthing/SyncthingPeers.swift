/// The remote devices as the local Syncthing sees them: which are connected, which are paused.
struct SyncthingPeers: Sendable {
    var connected: Set<String> = []
    var paused: Set<String> = []

    /// Connected and not paused: a device the folder can exchange data with right now.
    func isCounted(_ device: String) -> Bool {
        self.connected.contains(device) && !self.paused.contains(device)
    }
}
