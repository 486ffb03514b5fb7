#!/usr/bin/env bash
# The one device call (docs/cuda.md): from the repository root on the GPU machine,
#   bash .devcarry/gpu-runner/device-check.sh
# with the packed runner carried (run tool: carry [".devcarry"]). Runs run.sh into $OUT/gpu-run
# (or ./gpu-run where $OUT is unset), with the real-weight models pack.sh carried (models/real beside
# this script), else shared/models/real or ../shared/models/real when the machine has them; under 4 minutes; the summary is
# $OUT/gpu-run/results.json. Exit status: run.sh's.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${OUT:-$PWD}/gpu-run"
models=""
for d in "$here/models/real" shared/models/real ../shared/models/real; do
  [ -d "$d" ] && { models="$(cd "$d" && pwd)"; break; }
done
bash "$here/run.sh" "$dest" ${models:+"$models"}
