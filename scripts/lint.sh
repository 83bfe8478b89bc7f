#!/usr/bin/env bash
# The style check the test command runs first: `swift format lint` (the formatter the toolchain
# ships) with the repository's .swift-format, strict, over every Swift file: the sources, the
# tests, the fuzz targets and both manifests. A finding fails the run.
# Fix what it reports with:  scripts/lint.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Package.swift Fuzz/Package.swift Fuzz/Sources)
if [ "${1:-}" = "--fix" ]; then
    exec swift format format -i -r "${paths[@]}"
fi
swift format lint --strict -r "${paths[@]}"
