#!/usr/bin/env bash
# The release build of syncmon, the one way it is made (scripts/run.sh, scripts/package-deb.sh,
# scripts/benchmark.sh): optimized, the Swift runtime linked in statically (the binary runs on a
# host without a Swift toolchain), and linked with lld so that
#   - the ~58,000 relative relocations of a PIE are packed (DT_RELR, glibc 2.36+), and
#   - the dynamic symbol table holds only what is imported (--no-export-dynamic),
# which saves the loader reading and dirtying about 3 MB at every start (idle RSS, start time:
# docs/performance.md). lld also resolves the static Swift runtime's archives whatever their
# order; the archives FoundationEssentials needs are named, as their autolink entries do not
# bring them in when the runtime is linked statically. Nothing links all of Foundation (and
# ICU with it): syncmon's own code imports FoundationEssentials only, and so do its packages.
#
# libstdc++ is linked statically too: the Swift runtime uses a little of it, and the shared
# library cost ~1 MiB of resident memory at every start (idle RSS 20.1-20.5 -> 19.1-19.3 MiB).
# SwiftPM and swiftc ask for it as -lstdc++, so the archive is offered where the linker looks
# first: the build's own products directory, searched before the compiler's.
#
# The linker settings live here, in a SwiftPM toolset written next to the build, and nowhere
# else: they touch only the link step (no module is recompiled for them), and Package.swift
# stays free of unsafe flags and of anything read from the environment (SwiftPM caches an
# evaluated manifest, so a manifest that reads the environment can hand one build's settings
# to another — it once left the fuzz build without its coverage instrumentation).
#   scripts/build-release.sh [--product syncmon|syncmon-bench] [--configuration release|debug]
# (default: syncmon, release; debug is for testing the package, scripts/package-deb.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
product=syncmon
configuration=release
while [ $# -gt 0 ]; do
    case "$1" in
        --product) product=${2:?}; shift ;;
        --configuration) configuration=${2:?}; shift ;;
        *) echo "usage: scripts/build-release.sh [--product NAME] [--configuration release|debug]" >&2; exit 64 ;;
    esac
    shift
done

# lld from the same toolchain as the swift on PATH.
toolchain_bin=$(dirname "$(readlink -f "$(command -v swift)")")
lld=$toolchain_bin/ld.lld
[ -x "$lld" ] || { echo "build-release: no ld.lld beside $toolchain_bin/swift" >&2; exit 2; }
mkdir -p .build
toolset=.build/release-link-toolset.json
cat >"$toolset" <<EOF
{
  "schemaVersion": "1.0",
  "linker": {
    "path": "$lld",
    "extraCLIOptions": [
      "-z", "pack-relative-relocs", "--no-export-dynamic",
      "-l_FoundationCollections", "-l_FoundationCShims"
    ]
  }
}
EOF
# The archive beside the release products; the linker takes the first libstdc++ it finds on
# its search path, and this directory comes before GCC's (which holds the shared library's
# link). Release only: the debug directory is shared with the test builds, which stay as
# `swift build` makes them.
if [ "$configuration" = release ]; then
    products=$(swift build -c release --static-swift-stdlib --toolset "$toolset" --show-bin-path)
    archive=$("$toolchain_bin/clang" -print-file-name=libstdc++.a)
    if [ -f "$archive" ]; then
        mkdir -p "$products"
        ln -sf "$archive" "$products/libstdc++.a"
    else
        echo "build-release: no libstdc++.a (libstdc++-12-dev); linking the shared libstdc++" >&2
    fi
fi
exec swift build -c "$configuration" --static-swift-stdlib --toolset "$toolset" --product "$product"
