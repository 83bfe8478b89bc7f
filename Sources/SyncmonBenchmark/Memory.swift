/// A process's resident memory, three ways (bytes, from `/proc/PID/smaps_rollup`).
///
/// RSS counts every resident page of the executable's own code, which the kernel maps 64 KiB
/// around each page touched and takes back under pressure; anonymous memory (heap, stacks,
/// written data) is what the process itself holds, and PSS shares out pages mapped by other
/// processes too. docs/performance.md compares the anonymous figure with node_exporter's.
struct Memory {
    var resident: Double
    var anonymous: Double
    var proportional: Double
}
