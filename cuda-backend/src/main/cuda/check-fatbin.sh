#!/usr/bin/env bash
# Run by the Maven build (cuda-backend, verify phase). Without nvcc it says so and passes: the
# committed fatbin is used as is (FatbinTest still checks its stamp against the sources). With
# nvcc it recompiles into target/ and requires the committed fatbin to be current:
#   - same sources hash (else: run build-fatbin.sh and commit);
#   - with the same nvcc version, byte-identical output (nvcc output is deterministic);
#   - SASS for sm_90 inside (cuobjdump --list-elf when installed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
committed="$here/../resources/org/arenaplan/cuda"
target="${1:-$here/../../../target/fatbin-check}"
if ! command -v nvcc >/dev/null 2>&1; then
  echo "check-fatbin: nvcc not on PATH; using the committed kernels.fatbin unchecked against a compiler"
  exit 0
fi
stamp_value() { sed -n "s/^$1=//p" "$2"; }
"$here/build-fatbin.sh" "$target" >/dev/null
want="$(stamp_value sources.sha256 "$target/kernels.fatbin.properties")"
have="$(stamp_value sources.sha256 "$committed/kernels.fatbin.properties")"
if [ "$want" != "$have" ]; then
  echo "check-fatbin: kernels.fatbin is stale: the CUDA sources changed since it was built; run cuda-backend/src/main/cuda/build-fatbin.sh and commit" >&2
  exit 1
fi
if [ "$(stamp_value nvcc.version "$target/kernels.fatbin.properties")" = "$(stamp_value nvcc.version "$committed/kernels.fatbin.properties")" ]; then
  if ! cmp -s "$target/kernels.fatbin" "$committed/kernels.fatbin"; then
    echo "check-fatbin: the committed kernels.fatbin differs from what nvcc builds from the same sources; run build-fatbin.sh and commit" >&2
    exit 1
  fi
  echo "check-fatbin: committed kernels.fatbin is byte-identical to a fresh nvcc build"
else
  echo "check-fatbin: nvcc $(stamp_value nvcc.version "$target/kernels.fatbin.properties") differs from the one that built the committed fatbin; sources match, bytes not compared"
fi
# ptxas compiles every kernel for sm_90 (its report names each entry function and the target).
ptxas_report="$(cd "$here" && nvcc -cubin -arch=sm_90 --fmad=false -O3 --resource-usage -o "$target/kernels.sm_90.cubin" kernels.cu 2>&1)"
compiled="$(grep -c "Compiling entry function .* for 'sm_90'" <<<"$ptxas_report" || true)"
echo "check-fatbin: ptxas compiled $compiled entry functions for sm_90"
[ "$compiled" -gt 0 ] || { echo "$ptxas_report" >&2; echo "check-fatbin: ptxas produced no sm_90 code" >&2; exit 1; }
if command -v cuobjdump >/dev/null 2>&1; then
  elfs="$(cuobjdump --list-elf "$committed/kernels.fatbin")"
  echo "$elfs"
  grep -q 'sm_90' <<<"$elfs" || { echo "check-fatbin: no sm_90 SASS in kernels.fatbin" >&2; exit 1; }
else
  echo "check-fatbin: cuobjdump not installed; FatbinTest lists the fatbin's SASS/PTX entries instead"
fi
