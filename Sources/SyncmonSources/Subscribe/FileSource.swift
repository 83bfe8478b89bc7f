/// A `file:` source: follows an append-only JSONL file across rotation and truncation, like
/// `tail -F`, keeping its offset in the state directory (`FileFollower` does the work).
struct FileSource: EventSource {
    let path: String
    /// Start at the file's start instead of its end when no offset is saved (`--from-start`).
    let fromStart: Bool
    /// Where the file ended as the daemon started.
    let snapshot: FileFollower.StartSnapshot?

    func run(in context: SourceContext) async {
        var follower = FileFollower(context: context, path: self.path, fromStart: self.fromStart, snapshot: self.snapshot)
        await follower.run()
    }
}
