#!/usr/bin/env bash
# On a Linux x86-64 machine with an NVIDIA GPU and a CUDA 13 driver (no Java, Maven or network
# needed): runs doctor, the gpu-tagged tests and the benchmark, within ten minutes, and writes
#   OUTDIR/run.log       everything printed
#   OUTDIR/doctor.txt    what the probe found
#   OUTDIR/junit/        the JUnit XML reports
#   OUTDIR/bench.json    the benchmark's results (when it ran)
#   OUTDIR/results.json  summary: probe, test counts, benchmark
# Exit status: 0 when the tests passed (skips count as skipped, not passed) and the benchmark ran.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out="$(cd "$1" && pwd)"
java="$here/runtime/bin/java"
app="$here/lib/arenaplan-gpu.jar"
exec > >(tee -a "$out/run.log") 2>&1
echo "== arenaplan GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "== doctor"
"$java" -jar "$app" doctor | tee "$out/doctor.txt"
echo "== gpu tests (limit 6 min)"
timeout 360 "$java" -Xmx4g -jar "$here/lib/junit-platform-console-standalone.jar" execute \
  --class-path "$app:$here/lib/arenaplan-gpu-tests.jar" --scan-class-path "$here/lib/arenaplan-gpu-tests.jar" \
  --include-tag gpu --fail-if-no-tests --reports-dir "$out/junit" --details tree --disable-banner
tests_rc=$?
echo "== benchmark (limit 3 min)"
timeout 180 "$java" -Xmx4g -jar "$app" bench --json "$out/bench.json"
bench_rc=$?   # 3: CUDA unavailable
echo "== summary"
"$java" -jar "$app" summarize "$out" "$tests_rc" "$bench_rc"
[ "$tests_rc" -eq 0 ] && [ "$bench_rc" -eq 0 ]
