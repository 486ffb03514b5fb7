#!/usr/bin/env bash
# Builds the one-folder GPU runner (default: .devcarry/gpu-runner at the repository root, git-ignored):
#   runtime.tar.xz  a jlink'd Java runtime with the JDK modules PackCheck derives from jdeps, its
#                 modules image uncompressed so that xz packs the whole (about 13 MiB, against 39 MiB
#                 for the jlink-compressed folder); run.sh unpacks it on the device
#   lib/          arenaplan-gpu.jar (shaded: core, cuda-backend, samples, JCuda + natives),
#                 arenaplan-gpu-tests.jar (the gpu-tagged tests), junit-platform-console-standalone.jar,
#                 test-lib/*.jar (AssertJ and what it needs: the rest of the tests' class path)
#   run.sh        what the GPU machine runs: ./run.sh OUTDIR [MODELS_DIR]
#   device-check.sh  the one device call: runs run.sh into $OUT/gpu-run (docs/cuda.md)
#   models/real/  the real-weight models of ../shared/models/real (or $ARENAPLAN_REAL_MODELS), smallest
#                 first, as many as fit: the device call sends the working tree (tracked and untracked
#                 files not ignored) and the carried folder, 64 MiB in all; a model left out is named
# Then checks it here: every class the tests refer to is shipped (PackCheck), the working tree and
# the folder together stay under the call's 64 MiB (less a 1 MiB margin), and the packed runtime runs doctor, a simulator run, the simulator benchmark with its
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
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=0 --output "$out/runtime"
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
# The runtime travels packed (libjvm.so alone is 23 MiB unpacked); run.sh unpacks it on the device.
tar -C "$out" -cf - runtime | xz -6 -T2 > "$out/runtime.tar.xz"
rm -rf "$out/runtime"
# What the call sends: the working tree (tracked and untracked files git does not ignore) and this folder.
budget=$(( limit_mib * 1048576 - 1048576 ))
tree=$(git -C "$root" ls-files -z -co --exclude-standard | (cd "$root" && xargs -0 stat -c %s 2>/dev/null) | awk '{s += $1} END {print s + 0}')
runner=$(du -sb "$out" | cut -f1)
mib() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1048576}'; }
echo "pack: working tree $(mib "$tree") MiB + runner $(mib "$runner") MiB (runtime.tar.xz $(mib "$(du -sb "$out/runtime.tar.xz" | cut -f1)") MiB, lib $(mib "$(du -sb "$out/lib" | cut -f1)") MiB)"
if [ $(( tree + runner )) -ge "$budget" ]; then
  echo "pack: the working tree and the runner must stay under $(mib "$budget") MiB together (the device call's ${limit_mib} MiB less 1 MiB)" >&2
  exit 1
fi
real="${ARENAPLAN_REAL_MODELS:-$root/../shared/models/real}"
if [ -d "$real" ]; then
  mkdir -p "$out/models/real"
  # Each model: NAME.meta.json, its graph and its input and reference-output files; smallest first.
  python3 - "$real" "$out/models/real" $(( budget - tree - runner )) <<'PY'
import json, os, shutil, sys
src, dst, room = sys.argv[1], sys.argv[2], int(sys.argv[3])
models = []
for meta in sorted(f for f in os.listdir(src) if f.endswith(".meta.json")):
    m = json.load(open(os.path.join(src, meta)))
    files = [meta, m["file"]] + [i["file"] for i in m["inputs"].values()] + [o["file"] for o in m["outputs"]]
    models.append((sum(os.path.getsize(os.path.join(src, f)) for f in files), m["name"], files))
for size, name, files in sorted(models):
    if size > room:
        print(f"pack: real model {name} left out: {size / 1048576:.1f} MiB, {room / 1048576:.1f} MiB left of the call's budget")
        continue
    for f in files:
        shutil.copy(os.path.join(src, f), dst)
    room -= size
    print(f"pack: real model {name} carried ({size / 1048576:.1f} MiB)")
PY
else
  echo "pack: no $real here: no real-weight models carried"
fi
echo "pack: working tree and runner: $(mib $(( tree + $(du -sb "$out" | cut -f1) ))) MiB of the call's ${limit_mib} MiB"
echo "pack: ready; on the GPU machine: .devcarry/gpu-runner/device-check.sh (see docs/cuda.md)"
