#!/usr/bin/env bash
# Compiles kernels.cu into the committed fatbin and its stamp. Run after editing any .cu/.cuh:
#   cuda-backend/src/main/cuda/build-fatbin.sh
# Usage: build-fatbin.sh [OUTPUT_DIR]   (default: the resources folder the jar ships)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../resources/org/arenaplan/cuda}"
mkdir -p "$out"
# SASS for sm_80 and sm_90, PTX for newer GPUs; no FMA contraction, so f32 results equal Java's.
flags="-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 --fmad=false -O3"
nvcc_version="$(nvcc --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')"
[ -n "$nvcc_version" ] || { echo "build-fatbin.sh: cannot read the nvcc version" >&2; exit 1; }
( cd "$here" && nvcc -fatbin $flags -o "$out/kernels.fatbin" kernels.cu )
sources="$("$here/sources-sha256.sh")"
fatbin="$(sha256sum "$out/kernels.fatbin" | cut -d' ' -f1)"
cat > "$out/kernels.fatbin.properties" <<PROPS
# Written by cuda-backend/src/main/cuda/build-fatbin.sh; checked by check-fatbin.sh and FatbinTest.
sources.sha256=$sources
nvcc.version=$nvcc_version
nvcc.flags=$flags
fatbin.sha256=$fatbin
PROPS
echo "kernels.fatbin: $(stat -c %s "$out/kernels.fatbin") bytes, nvcc $nvcc_version, sources $sources"
