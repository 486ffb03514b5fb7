#!/usr/bin/env python3
"""Runs every exported model of one or more folders on arenaplan and compares its outputs with the
references written beside it. Needs only Python 3 and the arenaplan jar (no torch, no onnxruntime).

A folder holds, per model, NAME.meta.json (the format of ../shared/models/real and of export.py:
"file", "inputs": {name: {"file", ...}}, "outputs": [{"name", "file", ...}]) and the files it names.
For each model this runs

    java -jar JAR run NAME.onnx --device sim --mode MODE --iterations 1 --warmup 0
         --input NAME=FILE.pb ... --expect NAME=FILE.pb ...

and prints one row: model, exit code, and arenaplan's own 'matches'/'NO' line for the worst output
(or its one-line refusal). The last line is 'exports: N of M match'. Exit 0 when all match, 1 otherwise.

usage: check.py DIR [DIR...] [--jar samples/target/arenaplan.jar] [--mode planned|all] [--timeout S] [-- EXTRA RUN ARGS]
"""
import argparse, json, os, subprocess, sys, glob


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--jar", default=os.path.join(os.path.dirname(__file__), "..", "..", "samples", "target", "arenaplan.jar"))
    ap.add_argument("--mode", default="planned")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per model (default 900)")
    a = ap.parse_args(argv)
    if not os.path.isfile(a.jar):
        sys.exit(f"check.py: no jar at {a.jar}; build it with ./arenaplan --help (or give --jar)")
    metas = sorted(m for d in a.dirs for m in glob.glob(os.path.join(d, "*.meta.json")))
    if not metas:
        sys.exit(f"check.py: no *.meta.json in {' '.join(a.dirs)}")
    ok = 0
    for m in metas:
        d, meta = os.path.dirname(m), json.load(open(m))
        name = os.path.basename(m)[:-len(".meta.json")]
        cmd = ["java", "-jar", a.jar, "run", os.path.join(d, meta["file"]), "--device", "sim", "--mode", a.mode,
               "--iterations", "1", "--warmup", "0"]
        for k, v in meta["inputs"].items():
            cmd += ["--input", f"{k}={os.path.join(d, v['file'])}"]
        for o in meta["outputs"]:
            cmd += ["--expect", f"{o['name']}={os.path.join(d, o['file'])}"]
        try:
            p = subprocess.run(cmd + extra, capture_output=True, text=True, timeout=a.timeout)
            rc, out = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            rc, out = "timeout", f"no result within {a.timeout:g} s"
        lines = [l for l in out.splitlines() if l.startswith("reference ")]
        worst = next((l for l in lines if ": NO " in l), lines[0] if lines else None)
        why = worst.split(": ", 1)[1] if worst else (out.strip().splitlines() or ["(no output)"])[-1]
        ok += rc == 0
        print(f"{name:40s} rc={rc} {why[:300]}", flush=True)
    print(f"exports: {ok} of {len(metas)} match")
    sys.exit(0 if ok == len(metas) else 1)


if __name__ == "__main__":
    main()
