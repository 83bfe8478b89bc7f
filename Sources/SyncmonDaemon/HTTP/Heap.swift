import CMalloc

/// glibc's heap controls, from `<malloc.h>` (the `CMalloc` module).
enum Heap {
    /// Caps glibc's malloc arenas at `count` (`M_ARENA_MAX`).
    ///
    /// glibc gives busy threads arenas of their own, up to eight per core, and each keeps its
    /// freed memory. The daemon's threads allocate little in steady state (ingest nothing per
    /// event), but every `/metrics` render allocates megabytes; renders landing on different
    /// threads left that much free in each arena (RSS per pair after scrapes varied 2-8 KiB).
    static func limitArenas(to count: Int32) {
        _ = mallopt(M_ARENA_MAX, count)
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
