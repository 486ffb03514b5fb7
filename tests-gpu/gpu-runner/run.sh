#!/usr/bin/env bash
# On a Linux x86-64 machine with an NVIDIA GPU and a CUDA 13 driver (no Java, Maven or network
# needed): doctor, the gpu-tagged tests, the benchmark of every mode and the real-weight models,
# each step under its own timeout so that the whole call ends within 4 minutes (limits 5+15+100+50+35+10 s, plus 3 s to kill each: 3:50 at most)
# even when a step hangs. Writes
#   OUTDIR/run.log        everything printed
#   OUTDIR/doctor.txt     what the probe found
#   OUTDIR/junit/         the JUnit XML reports
#   OUTDIR/bench.json     the benchmark (built-in models and GPU graphs, every mode)
#   OUTDIR/real.json      the real-weight ONNX models against their reference outputs
#   OUTDIR/results.json   the summary: probe, every test with its time, every figure, each step's exit status
# A test method that runs past 60 s fails on its own (JUnit's default timeout, run in a separate
# thread so that even a method stuck in a driver call is abandoned), so that a hang still leaves
# the XML reports of the others before the step's limit.
# Usage: run.sh OUTDIR [MODELS_DIR]   (MODELS_DIR: the real-weight models, e.g. shared/models/real;
# device-check.sh finds them). Exit status: 0 when every step passed, 3 without CUDA, 1 otherwise.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 OUTDIR [MODELS_DIR]" >&2; exit 2; }
mkdir -p "$1"
out="$(cd "$1" && pwd)"
models="${2:-}"
# JCuda writes its native libraries to java.io.tmpdir before loading them: keep them in the runner.
mkdir -p "$here/natives"
java=("$here/runtime/bin/java" "-Djava.io.tmpdir=$here/natives" -Xmx6g)
app="$here/lib/arenaplan-gpu.jar"
testcp="$app:$here/lib/arenaplan-gpu-tests.jar"
for j in "$here"/lib/test-lib/*.jar; do testcp="$testcp:$j"; done
steps="$out/steps.tsv"
: > "$steps"
exec > >(tee -a "$out/run.log") 2>&1

# step NAME LIMIT_S COMMAND...: runs it under timeout (TERM at the limit, KILL 3 s later), records exit status and seconds.
step() {
  local name="$1" limit="$2"; shift 2
  echo "== $name (limit ${limit} s)"
  local t0=$SECONDS
  timeout -k 3 "$limit" "$@"
  local rc=$?
  [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && echo "== $name: TIMED OUT after ${limit} s"
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$((SECONDS - t0))" "$limit" >> "$steps"
}

echo "== arenaplan GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
command -v nvidia-smi >/dev/null 2>&1 && timeout 5 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
step doctor 15 bash -c '"$@" | tee "'"$out"'/doctor.txt"' _ "${java[@]}" -jar "$app" doctor
step tests 100 "${java[@]}" -jar "$here/lib/junit-platform-console-standalone.jar" execute \
  --class-path "$testcp" --scan-class-path "$here/lib/arenaplan-gpu-tests.jar" \
  --include-tag gpu --fail-if-no-tests --reports-dir "$out/junit" --details tree --disable-banner \
  --config=junit.jupiter.execution.timeout.default=60s --config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD
step bench 50 "${java[@]}" -jar "$app" bench --iterations 10 --warmup 2 --json "$out/bench.json"
if [ -n "$models" ]; then
  step real-models 35 "${java[@]}" -jar "$app" bench-real "$models" --iterations 3 --json "$out/real.json"
else
  echo "== real-models: no shared/models/real found (pass MODELS_DIR); skipped"
fi
echo "== summary"
timeout -k 2 10 "${java[@]}" -jar "$app" summarize "$out"
rc=$?
[ "$rc" -eq 0 ] && echo "== all steps passed" || echo "== some step failed (see results.json)"
exit "$rc"
