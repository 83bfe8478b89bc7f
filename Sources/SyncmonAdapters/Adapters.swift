/// Adapters turn what a foreign sync tool already says into the core's `Event`s, so that the
/// state model, the stall detectors, the metrics and the journal apply unchanged to tools that
/// never heard of syncmon (docs/protocol.md is the event model they produce).
///
/// Every adapter is pure, like `SyncmonCore`: the tool's bytes and the current time come in;
/// events, and decisions for the code that does the I/O, come out. No adapter opens a socket,
/// reads a clock or a file. One folder per tool: `Syncthing/` (its REST API, docs/syncthing.md);
/// the parsers of `syncmon wrap` (rclone, restic, rsync) go beside it.
///
/// This enum only names the module's purpose; the adapters are the types beside it
/// (`SyncthingAdapter`, …).
public enum Adapters {}
