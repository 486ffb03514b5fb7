#!/usr/bin/env bash
# Builds the one-folder GPU runner (default: .devcarry/gpu-runner at the repository root, git-ignored):
#   runtime/      a jlink'd Java runtime with the JDK modules PackCheck derives from jdeps
#   lib/          arenaplan-gpu.jar (shaded: core, cuda-backend, samples, JCuda + natives),
#                 arenaplan-gpu-tests.jar (the gpu-tagged tests), junit-platform-console-standalone.jar,
#                 test-lib/*.jar (AssertJ and what it needs: the rest of the tests' class path)
#   run.sh        what the GPU machine runs: ./run.sh OUTDIR [MODELS_DIR]
#   device-check.sh  the one device call: runs run.sh into $OUT/gpu-run (docs/cuda.md)
# Then checks it here: every class the tests refer to is shipped (PackCheck), the folder is under
# 64 MiB, and the packed runtime runs doctor, a simulator run, the simulator benchmark with its
# JSON, and a non-GPU test class through the console launcher (AssertJ loaded from the pack).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/.devcarry/gpu-runner}"
limit_mib=64
cd "$root"
mvn -B -ntp -q -pl tests-gpu -am clean package -DskipTests
rm -rf "$out"
mkdir -p "$out"
cp -r tests-gpu/target/gpu-runner "$out/lib"
cp tests-gpu/gpu-runner/run.sh tests-gpu/gpu-runner/device-check.sh "$out/"
chmod +x "$out/run.sh" "$out/device-check.sh"
check=(java -cp "$out/lib/arenaplan-gpu.jar" org.arenaplan.gpu.PackCheck)
"${check[@]}" check "$out/lib"
modules="$("${check[@]}" modules "$out/lib")"
echo "pack: runtime modules: $modules"
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/runtime"
mib() { echo $(( $(du -sb "$1" | cut -f1) / 1048576 )); }
size_mib=$(mib "$out")
echo "pack: $out is ${size_mib} MiB (runtime $(mib "$out/runtime") MiB, lib $(mib "$out/lib") MiB)"
if [ "$size_mib" -ge "$limit_mib" ]; then
  echo "pack: the runner folder must stay under ${limit_mib} MiB" >&2
  exit 1
fi
echo "pack: self-check with the packed runtime"
java=("$out/runtime/bin/java" "-Djava.io.tmpdir=$out/natives")
mkdir -p "$out/natives"
"${java[@]}" -jar "$out/lib/arenaplan-gpu.jar" doctor
"${java[@]}" -jar "$out/lib/arenaplan-gpu.jar" sim-smoke
selfcheck="$(mktemp -d)"
trap 'rm -rf "$selfcheck" "$out/natives"' EXIT
"${java[@]}" -jar "$out/lib/arenaplan-gpu.jar" bench --device sim --models gpu-mlp --iterations 1 --warmup 0 --json "$selfcheck/bench.json" >/dev/null
grep -q '"mode" : "graph"' "$selfcheck/bench.json" || { echo "pack: the packed runtime wrote no benchmark JSON" >&2; exit 1; }
echo "pack: simulator benchmark JSON written by the packed runtime"
testcp="$out/lib/arenaplan-gpu.jar:$out/lib/arenaplan-gpu-tests.jar"
for j in "$out"/lib/test-lib/*.jar; do testcp="$testcp:$j"; done
"${java[@]}" -jar "$out/lib/junit-platform-console-standalone.jar" execute --class-path "$testcp" \
  --select-class org.arenaplan.gpu.GpuGraphsTest --fail-if-no-tests --details summary --disable-banner --reports-dir "$selfcheck/junit"
echo "pack: ready; on the GPU machine: .devcarry/gpu-runner/device-check.sh (see docs/cuda.md)"
