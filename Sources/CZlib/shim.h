// zlib, for gzip-compressing /metrics as it is rendered (SyncmonDaemon.GzipCompressor).
#include <zlib.h>
