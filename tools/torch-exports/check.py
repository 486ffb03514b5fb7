#!/usr/bin/env python3
"""Runs every exported model of one or more folders on arenaplan and compares its outputs with the
references written beside it. Needs only Python 3 and the arenaplan jar (no torch, no onnxruntime).

A folder holds, per model, NAME.meta.json (the format of ../shared/models/real and of export.py:
"file", "inputs": {name: {"file", ...}}, "outputs": [{"name", "file", ...}]) and the files it names.
For each model this runs

    java -jar JAR run NAME.onnx --device sim --mode MODE --iterations 1 --warmup 0
         --input NAME=FILE.pb ... --expect NAME=FILE.pb ...

and prints one row: model, exit code, and arenaplan's own 'matches'/'NO' line for the worst output
(or its one-line refusal). A meta.json with "reference_error" (export.py's failures=True: ONNX Runtime fails the run)
matches where arenaplan refuses the run too (exit 2, no stack trace). The last line is 'exports: N of M match'.
Exit 0 when all match, 1 otherwise.

A folder without *.meta.json is read as ONNX backend test cases (the layout of onnx's
onnx/backend/test/data/{node,pytorch-converted,pytorch-operator,simple}): the folder itself or each
folder under it holding model.onnx and test_data_set_N/{input_K,output_K}.pb, input_K being the
model's K-th graph input that is no initializer and output_K its K-th graph output (names read from
model.onnx); every data set is one run. A folder of light models (onnx/backend/test/data/light:
NAME.onnx beside NAME_output_0.pb) is run on the input onnx's backend runner generates for them,
arange(n)/n in f32 of the declared shape (a symbolic dim 1). One row per case: 'match', 'NO',
'refused' (exit 2 and one line) or 'CRASH' (any other exit code, or a stack trace), then
'cases: N of M match (K NO, R refused, C crashed)'.
Exits 0 when every row matches, 1 otherwise (a refusal too).

usage: check.py DIR [DIR...] [--jar samples/target/arenaplan.jar] [--mode planned|all] [--timeout S] [-- EXTRA RUN ARGS]
"""
import argparse, json, os, re, struct, subprocess, sys, glob, tempfile


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
    for d in a.dirs:
        if not os.path.isdir(d):
            sys.exit(f"check.py: {d}: " + ("not a folder" if os.path.exists(d) else "no such folder"))
    metas = sorted(m for d in a.dirs for m in glob.glob(os.path.join(d, "*.meta.json")))
    cases = sorted(c for d in a.dirs if not glob.glob(os.path.join(d, "*.meta.json")) for c in backend_cases(d))
    if not metas and not cases:
        sys.exit(f"check.py: no *.meta.json in {' '.join(a.dirs)}, nor ONNX backend test cases "
                 "(model.onnx with test_data_set_N, or NAME.onnx with NAME_output_0.pb)")
    ok = True
    if metas:
        ok &= check_exports(a, metas, extra)
    if cases:
        ok &= check_cases(a, cases, extra)
    sys.exit(0 if ok else 1)


def run(a, model, inputs, expects, extra):
    """Runs one model; returns (exit code, whole output, the 'reference' line or refusal to show)."""
    cmd = ["java", "-jar", a.jar, "run", model, "--device", "sim", "--mode", a.mode, "--iterations", "1", "--warmup", "0"]
    cmd += [x for k, f in inputs for x in ("--input", f"{k}={f}")]
    cmd += [x for k, f in expects for x in ("--expect", f"{k}={f}")]
    try:
        p = subprocess.run(cmd + extra, capture_output=True, text=True, timeout=a.timeout)
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, out = "timeout", f"no result within {a.timeout:g} s"
    lines = [l for l in out.splitlines() if l.startswith("reference ")]
    worst = next((l for l in lines if ": NO " in l), lines[0] if lines else None)
    why = worst.split(": ", 1)[1] if worst else (out.strip().splitlines() or ["(no output)"])[-1]
    return rc, out, why


WEAK = " [weak: a reference lies within atol everywhere, so zeros would match it too]"


def weak(out):
    """The row's suffix when arenaplan noted a matched reference that lies within atol everywhere, else ''."""
    return WEAK if any(l.startswith("note: reference ") and "lies within atol" in l for l in out.splitlines()) else ""


def weak_summary(n):
    if n:
        print(f"weak: {n} of the matches rest on a reference within atol everywhere (rows marked [weak: ...])")


def check_exports(a, metas, extra):
    ok = nweak = 0
    for m in metas:
        d, name = os.path.dirname(m), os.path.basename(m)[:-len(".meta.json")]
        try:
            with open(m) as f:
                meta = json.load(f)
            model = os.path.join(d, meta["file"])
            ins = [(k, os.path.join(d, v["file"])) for k, v in meta["inputs"].items()]
            exps = [(o["name"], os.path.join(d, o["file"])) for o in meta["outputs"]]
            fails = meta.get("reference_error")
            if not exps and not fails:
                raise ValueError("'outputs' is empty, so nothing to compare")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            why = f"no field {e}" if isinstance(e, KeyError) else str(e)
            print(f"{name:40s} rc=refused check.py cannot read {m}: {why}", flush=True)
            continue
        rc, out, why = run(a, model, ins, exps, extra)
        if fails:   # ONNX Runtime fails this run: a match is arenaplan refusing it too (exit 2, its one line last, no stack trace)
            refused = rc == 2 and "\tat " not in out
            rc, why = (0 if refused else 1), (f"refused, as ONNX Runtime fails it: {why}" if refused
                                              else f"ONNX Runtime fails it ({fails[:100]}), but arenaplan gave rc={rc}: {why}")
        ok += rc == 0
        mark = weak(out) if rc == 0 else ""
        nweak += mark != ""
        print(f"{name:40s} rc={rc} {why[:300]}{mark}", flush=True)
    print(f"exports: {ok} of {len(metas)} match")
    weak_summary(nweak)
    return ok == len(metas)


def backend_cases(d):
    """(name, model, [data set folder, ...] or None for a light model) of every case at or under d."""
    if os.path.isfile(os.path.join(d, "model.onnx")):
        found = [d]
    else:
        found = [c for c in glob.glob(os.path.join(d, "*")) if os.path.isfile(os.path.join(c, "model.onnx"))]
    out = [(os.path.join(os.path.basename(os.path.dirname(os.path.abspath(c))), os.path.basename(os.path.abspath(c))),
            os.path.join(c, "model.onnx"), sorted(glob.glob(os.path.join(c, "test_data_set_*")), key=set_number))
           for c in found]
    out += [(os.path.join(os.path.basename(os.path.abspath(d)), os.path.basename(m)[:-5]), m, None)
            for m in glob.glob(os.path.join(d, "*.onnx")) if os.path.isfile(m[:-5] + "_output_0.pb")]
    return out


def set_number(path):
    m = re.search(r"_(\d+)(\.pb)?$", path)
    return int(m.group(1)) if m else -1


def check_cases(a, cases, extra):
    counts = {"match": 0, "NO": 0, "refused": 0, "CRASH": 0}
    nweak = 0
    with tempfile.TemporaryDirectory(prefix="check-cases-") as tmp:
        for name, model, sets in cases:
            verdict = ("refused", "check.py: no test_data_set_N in the case")
            try:
                inputs, outputs = graph_io(model)
                runs = ([data_set(s, inputs, outputs) for s in sets]
                        if sets is not None else [light_run(model, outputs, tmp)])
            except (OSError, ValueError) as e:
                runs, verdict = [], ("refused", f"check.py cannot read the case: {e}")
            mark = ""
            for s, (ins, exps) in enumerate(runs):
                rc, out, why = run(a, model, ins, exps, extra)
                mark = mark or weak(out)
                kind = ("CRASH" if rc not in (0, 1, 2) or "\tat " in out or "Exception in thread" in out
                        else "match" if rc == 0 else "NO" if rc == 1 else "refused")
                if kind == "NO" and ": NO " not in why:   # every reference matched, the modes (--mode all) did not agree
                    why = next((l for l in out.splitlines() if l.startswith("outputs equal across modes: NO")), why)
                verdict = (kind, (f"data set {s}: " if len(runs) > 1 else "") + why)
                if kind != "match":
                    break
            counts[verdict[0]] += 1
            mark = mark if verdict[0] == "match" else ""
            nweak += mark != ""
            print(f"{name:60s} {verdict[0]:7s} {verdict[1][:300]}{mark}", flush=True)
    print(f"cases: {counts['match']} of {len(cases)} match ({counts['NO']} NO, {counts['refused']} refused, "
          f"{counts['CRASH']} crashed)")
    weak_summary(nweak)
    return counts["match"] == len(cases)


def data_set(folder, inputs, outputs):
    """([(graph input, input_K.pb)], [(graph output, output_K.pb)]) of one data set; a file past the
    graph's inputs or outputs, or no output_K.pb at all (nothing to compare: not a match), is a ValueError."""
    ins, outs = numbered(folder, "input"), numbered(folder, "output")
    for kind, files, names in (("input", ins, inputs), ("output", outs, outputs)):
        if len(files) > len(names):
            raise ValueError(f"{os.path.basename(folder)}: {len(files)} {kind}_K.pb but the model has "
                             f"{len(names)} graph {kind}(s) ({', '.join(names)})")
    if not outs:
        raise ValueError(f"{os.path.basename(folder)}: no output_K.pb, so nothing to compare")
    return list(zip(inputs, ins)), list(zip(outputs, outs))


def numbered(folder, kind):
    files = sorted(glob.glob(os.path.join(folder, f"{kind}_*.pb")), key=set_number)
    if [set_number(f) for f in files] != list(range(len(files))):
        raise ValueError(f"{folder}: {kind}_K.pb are not numbered 0, 1, ...")
    return files


def light_run(model, outputs, tmp):
    """The input onnx's runner feeds a light model (arange(n)/n, f32), written to tmp, and its reference."""
    ins = []
    for k, (name, elem, shape) in enumerate(graph_io(model, shapes=True)[0]):
        if elem != 1:
            raise ValueError(f"graph input '{name}' is not f32; onnx's runner generates f32 inputs only")
        n = 1
        for v in shape:
            n *= v
        f = os.path.join(tmp, f"{os.path.basename(model)[:-5]}_input_{k}.pb")
        write_tensor(f, name, shape, [i / n for i in range(n)])
        ins.append((name, f))
    prefix = model[:-5]
    return ins, [(o, f"{prefix}_output_{k}.pb") for k, o in enumerate(outputs) if os.path.isfile(f"{prefix}_output_{k}.pb")]


# The few fields of onnx.proto read here (protobuf wire format; no onnx package needed).
def fields(buf, start, end):
    i = start
    while i < end:
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 1:
            value, i = None, i + 8
        elif wire == 5:
            value, i = None, i + 4
        elif wire == 2:
            n, i = varint(buf, i)
            value, i = (i, i + n), i + n
        else:
            raise ValueError(f"not a protobuf message (wire type {wire} at byte {i})")
        yield number, wire, value


def varint(buf, i):
    shift = value = 0
    while True:
        if i >= len(buf):
            raise ValueError("truncated protobuf message")
        b = buf[i]
        value |= (b & 0x7F) << shift
        i, shift = i + 1, shift + 7
        if b < 0x80:
            return value, i


def first(buf, span, number):
    return next((v for n, w, v in fields(buf, *span) if n == number and w == 2), None)


def text(buf, span):
    return bytes(buf[span[0]:span[1]]).decode("utf-8") if span else ""


def graph_io(model, shapes=False):
    """Names of the graph inputs that are no initializer (with element type and shape when shapes),
    and of the graph outputs, in the model's order: ModelProto.graph (7), GraphProto input (11),
    output (12), initializer (5, TensorProto name 8), ValueInfoProto name (1) and type (2)."""
    with open(model, "rb") as f:
        buf = memoryview(f.read())
    graph = first(buf, (0, len(buf)), 7)
    if graph is None:
        raise ValueError(f"{model}: no graph")
    inits, ins, outs = set(), [], []
    for n, w, v in fields(buf, *graph):
        if n == 5 and w == 2:
            inits.add(text(buf, first(buf, v, 8)))
        elif n in (11, 12) and w == 2:
            (ins if n == 11 else outs).append((text(buf, first(buf, v, 1)), v))
    ins = [(name, v) for name, v in ins if name not in inits]
    if shapes:
        return [(name, *tensor_type(buf, v)) for name, v in ins], [name for name, _ in outs]
    return [name for name, _ in ins], [name for name, _ in outs]


def tensor_type(buf, value_info):
    """(elem_type, dims) of a ValueInfoProto: TypeProto (2) tensor_type (1) elem_type (1), shape (2),
    TensorShapeProto dim (1) dim_value (1); a dim without dim_value is 1, as onnx's runner takes it."""
    tt = first(buf, first(buf, value_info, 2) or (0, 0), 1)
    if tt is None:
        return 0, []
    elem = next((v for n, w, v in fields(buf, *tt) if n == 1 and w == 0), 0)
    shape = first(buf, tt, 2)
    dims = []
    for n, w, dim in (fields(buf, *shape) if shape else ()):
        if n == 1 and w == 2:
            dims.append(next((v for m, x, v in fields(buf, *dim) if m == 1 and x == 0), 1))
    return elem, dims


def write_tensor(path, name, dims, values):
    """A TensorProto of f32 (data_type 1): dims (1), data_type (2), name (8), raw_data (9)."""
    def key_len(number, data):
        return put_varint(number << 3 | 2) + put_varint(len(data)) + data
    raw = struct.pack(f"<{len(values)}f", *values)
    msg = b"".join(put_varint(1 << 3) + put_varint(d) for d in dims) + put_varint(2 << 3) + put_varint(1)
    msg += key_len(8, name.encode("utf-8")) + key_len(9, raw)
    with open(path, "wb") as f:
        f.write(msg)


def put_varint(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


if __name__ == "__main__":
    main()
