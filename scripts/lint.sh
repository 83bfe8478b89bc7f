#!/usr/bin/env bash
# The style check the test command runs: `swift format lint` (the formatter the toolchain ships)
# with the repository's .swift-format, strict, over the Swift sources, tests and the manifest.
# Fix what it reports with:  swift format format -i -r Sources Tests Package.swift
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict -r Sources Tests Package.swift
