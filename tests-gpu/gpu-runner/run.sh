#!/usr/bin/env bash
# On a Linux x86-64 machine with an NVIDIA GPU and a CUDA 13 driver (no Java, Maven or network
# needed): doctor, the gpu-tagged tests, the benchmark of every mode and the real-weight models,
# each step under its own timeout so that the whole call ends within 4 minutes (limits 5+8+13+95+50+35+10 s,
# plus 1 to 3 s to kill each, plus at most 5 s for tee to finish the log: 3:59 at most) even when a step hangs. A step that is pointless is
# skipped and recorded as such: every step after a doctor step that timed out (a hanging driver),
# bench and real-models without a CUDA device, real-models without MODELS_DIR. Writes
#   OUTDIR/run.log        everything printed
#   OUTDIR/doctor.txt     what the probe found
#   OUTDIR/probe.json     the same as JSON (device, memory, compute capability, driver)
#   OUTDIR/steps.tsv      each step: name, exit status (or "skipped"), seconds, limit, why skipped
#   OUTDIR/junit/         the JUnit XML reports
#   OUTDIR/tests-progress.tsv  each test's outcome as it happened (kept when the tests step is killed)
#   OUTDIR/bench.json     the benchmark (built-in models and GPU graphs, every mode)
#   OUTDIR/real.json      the real-weight ONNX models against their reference outputs
#   OUTDIR/results.json   the summary: probe, every test with its time, every figure, each step's exit status
# A test method that runs past 60 s fails on its own (JUnit's default timeout, run in a separate
# thread so that even a method stuck in a driver call is abandoned), so that a hang still leaves
# the XML reports of the others before the step's limit; where the step is killed anyway,
# tests-progress.tsv says which tests finished and which one was running.
# Usage: run.sh OUTDIR [MODELS_DIR]   (MODELS_DIR: the real-weight models, e.g. shared/models/real;
# device-check.sh finds them). Exit status: 0 when every step passed or was skipped, 3 when the probe
# found no CUDA device, 1 otherwise (a step failed or timed out, or the doctor step left no probe.json).
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
exec 3>&1 4>&2 > >(tee -a "$out/run.log") 2>&1
tee_pid=$!

# step NAME LIMIT COMMAND...: runs it under timeout (TERM at the limit, KILL 3 s later), records
# exit status and seconds in steps.tsv and $last_rc, then kills whatever the step left in its
# process group (timeout leads one of its own; a JVM that ignores TERM inside a pipeline outlives
# the timeout's child, and would hold the GPU and this call's output open).
step() {
  local name="$1" limit="$2"; shift 2
  echo "== $name (limit ${limit} s)"
  local t0=$SECONDS
  timeout -k 3 "$limit" "$@" &
  local pid=$!
  wait "$pid"
  last_rc=$?
  kill -KILL -- "-$pid" 2>/dev/null
  { [ "$last_rc" -eq 124 ] || [ "$last_rc" -eq 137 ]; } && echo "== $name: TIMED OUT after ${limit} s"
  printf '%s\t%s\t%s\t%s\n' "$name" "$last_rc" "$((SECONDS - t0))" "$limit" >> "$steps"
}

# skip NAME LIMIT REASON: records a step that was not started, and why.
skip() {
  echo "== $1: skipped: $3"
  printf '%s\tskipped\t0\t%s\t%s\n' "$1" "$2" "$3" >> "$steps"
}

echo "== arenaplan GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
# pack.sh ships the runtime packed (the call sends at most 64 MiB): unpack it beside this script for
# this run, with tar's xz where the machine has it, else Python's tarfile (lzma is in its standard
# library); removed again at the end, with JCuda's natives, so that a dry run here leaves the
# carried folder as packed.
unpacked=""
if [ ! -x "$here/runtime/bin/java" ] && [ -f "$here/runtime.tar.xz" ]; then
  echo "== unpacking runtime.tar.xz"
  unpacked=1
  timeout -k 2 8 bash -c 'tar -C "$1" -xJf "$1/runtime.tar.xz" 2>/dev/null || python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$1/runtime.tar.xz" "$1"' _ "$here" \
    || echo "== unpacking runtime.tar.xz failed: the steps below cannot start java"
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  timeout -k 2 5 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
else
  echo "== nvidia-smi: not on PATH"
fi
# The probe: the doctor's report in doctor.txt, its findings in probe.json (read by summarize, which
# never loads the driver itself); exit 0 with CUDA, 3 without.
step doctor 13 bash -c 'set -o pipefail; "${@:2}" | tee "$1"' _ "$out/doctor.txt" "${java[@]}" -jar "$app" probe "$out/probe.json"
doctor_rc=$last_rc
if [ "$doctor_rc" -eq 124 ] || [ "$doctor_rc" -eq 137 ]; then
  why="the doctor step timed out: the CUDA driver may hang (see run.log)"
  skip tests 95 "$why"; skip bench 50 "$why"; skip real-models 35 "$why"
else
  # Without CUDA the tests still run, to show the pack's test class path loads here; they skip.
  step tests 95 "${java[@]}" -jar "$here/lib/junit-platform-console-standalone.jar" execute \
    --class-path "$testcp" --scan-class-path "$here/lib/arenaplan-gpu-tests.jar" \
    --include-tag gpu --fail-if-no-tests --reports-dir "$out/junit" --details tree --disable-banner \
    --config=junit.jupiter.execution.timeout.default=60s --config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD \
    --config=arenaplan.test.progress="$out/tests-progress.tsv"
  if [ "$doctor_rc" -eq 3 ]; then
    why="no CUDA device (see doctor.txt)"
    skip bench 50 "$why"; skip real-models 35 "$why"
  else
    step bench 50 "${java[@]}" -jar "$app" bench --iterations 10 --warmup 2 --json "$out/bench.json"
    if [ -n "$models" ]; then
      step real-models 35 "${java[@]}" -jar "$app" bench-real "$models" --iterations 3 --warmup 1 --json "$out/real.json"
    else
      skip real-models 35 "no shared/models/real on this machine (device-check.sh looks there; or pass MODELS_DIR)"
    fi
  fi
fi
echo "== summary"
timeout -k 2 10 "${java[@]}" -jar "$app" summarize "$out" &
pid=$!
wait "$pid"
rc=$?
kill -KILL -- "-$pid" 2>/dev/null
[ "$rc" -eq 0 ] && echo "== all steps passed" || echo "== not every step passed, exit $rc (see results.json: outcome)"
exec 1>&3 2>&4 3>&- 4>&-
[ -n "$unpacked" ] && rm -rf "$here/runtime"
rm -rf "$here/natives"
# Let tee finish run.log, but not forever: a process no KILL could end would keep its pipe open.
timeout -k 1 4 tail --pid="$tee_pid" -f /dev/null 2>/dev/null
exit "$rc"
