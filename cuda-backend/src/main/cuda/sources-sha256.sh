#!/usr/bin/env bash
# One hash over every kernel source: for each *.cu/*.cuh in byte order of names, the name, a
# newline, then the file. FatbinTest computes the same in Java.
set -euo pipefail
cd "$(dirname "$0")"
for f in $(ls -1 *.cu *.cuh | LC_ALL=C sort); do printf '%s\n' "$f"; cat "$f"; done | sha256sum | cut -d' ' -f1
