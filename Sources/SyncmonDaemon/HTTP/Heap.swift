import CMalloc

/// glibc's heap controls, from `<malloc.h>` (the `CMalloc` module).
enum Heap {
    /// Blocks of this size and up are mapped on their own and unmapped when freed (`M_MMAP_THRESHOLD`).
    ///
    /// glibc's default starts at 128 KiB but rises to the size of each mapped block freed, up to
    /// 32 MiB, after which multi-megabyte blocks come from the heap. Under load the daemon frees
    /// such blocks every second: a render's and a state save's buffers, copies of the pairs'
    /// storage. Freed inside the heap they stayed resident as holes or were trimmed off its top
    /// in jumps, so at 1,000 pairs scraped every second RSS wandered between levels 10 MiB apart
    /// (docs/soak.md). Set once, the threshold stays put and RSS holds one level; the page
    /// faults of mapping those blocks afresh did not show in `GET /metrics` times. 1 MiB keeps
    /// the 256 KiB pieces of a streamed response in the heap, where the next piece reuses them.
    static let mappedBlockSize: Int32 = 1 << 20

    /// Sets the allocator up for the daemon; called once at start, before other threads run.
    ///
    /// Arenas are capped at two (`M_ARENA_MAX`): glibc gives busy threads arenas of their own, up
    /// to eight per core, and each keeps its freed memory. The daemon's threads allocate little
    /// in steady state (ingest nothing per event), but every `/metrics` render allocates
    /// megabytes; renders landing on different threads left that much free in each arena (RSS
    /// per pair after scrapes varied 2-8 KiB). One arena would also end the rarer step a loaded
    /// machine makes when rendering moves to the other arena (docs/soak.md), but with it
    /// `GET /metrics` took 12-16 ms at 1,000 pairs against 8-10 ms, and 160-250 ms at 10,000
    /// against 110-135 ms, past the 200 ms target (docs/performance.md).
    static func configure() {
        _ = mallopt(M_ARENA_MAX, 2)
        _ = mallopt(M_MMAP_THRESHOLD, Self.mappedBlockSize)
    }

    /// Hands freed heap memory back to the system (`malloc_trim(0)`) after a response of
    /// `bytes`, when it was very large (16 MiB, ~2,000 pairs of `/metrics`, and up): the
    /// allocator would otherwise keep that much resident between scrapes. Below that the
    /// next scrape reuses the pages, which trimming would make it fault in again.
    static func releaseFreedMemory(after bytes: Int) {
        guard bytes > 16 << 20 else { return }
        _ = malloc_trim(0)
    }
}
