#!/usr/bin/env bash
# Builds the one-folder GPU runner (default: .devcarry/gpu-runner at the repository root, git-ignored):
#   runtime/  a jlink'd Java runtime with the JDK modules jdeps says the jars need
#   lib/      arenaplan-gpu.jar (shaded: core, cuda-backend, samples, JCuda + natives),
#             arenaplan-gpu-tests.jar (the gpu-tagged tests), junit-platform-console-standalone.jar
#   run.sh    what the GPU machine runs: ./run.sh OUTDIR
# Then checks it here: under 64 MiB, and the packed runtime runs `doctor` and a simulator run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/.devcarry/gpu-runner}"
limit_mib=64
cd "$root"
mvn -B -ntp -q -pl tests-gpu -am clean package -DskipTests -Pgpu-runner
rm -rf "$out"
mkdir -p "$out/lib"
cp tests-gpu/target/gpu-runner/*.jar "$out/lib/"
cp tests-gpu/gpu-runner/run.sh "$out/run.sh"
chmod +x "$out/run.sh"
modules="$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps "$out"/lib/*.jar)"
echo "pack: jdeps says the jars need: $modules"
# jdk.zipfs: the JUnit launcher scans jars through the zip file system, a service jdeps cannot see.
jlink --add-modules "$modules,jdk.zipfs" --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/runtime"
size_mib=$(( $(du -sb "$out" | cut -f1) / 1048576 ))
echo "pack: $out is ${size_mib} MiB (runtime $(( $(du -sb "$out/runtime" | cut -f1) / 1048576 )) MiB, lib $(( $(du -sb "$out/lib" | cut -f1) / 1048576 )) MiB)"
if [ "$size_mib" -ge "$limit_mib" ]; then
  echo "pack: the runner folder must stay under ${limit_mib} MiB" >&2
  exit 1
fi
echo "pack: self-check with the packed runtime"
"$out/runtime/bin/java" -jar "$out/lib/arenaplan-gpu.jar" doctor
"$out/runtime/bin/java" -jar "$out/lib/arenaplan-gpu.jar" sim-smoke
echo "pack: ready; on the GPU machine run: $out/run.sh OUTDIR"
