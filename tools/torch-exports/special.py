#!/usr/bin/env python3
"""Sweeps special values through one-node ONNX models: NaN, +inf, -inf, -0.0, denormals and empty tensors into
reductions, ArgMax/ArgMin, the variadic Max/Min/Mean/Sum, Clip, activations, Softmax/LogSoftmax, TopK, MaxPool,
rounding, Mod, Div, Pow, Sqrt, Log, comparisons, Where, IsNaN/IsInf, Cast and CumSum. Each case is built with
onnx.helper, run on ONNX Runtime's CPU provider (the oracle) and on onnx.reference (the spec's own evaluator), and
then on arenaplan:

    java -jar JAR run CASE.onnx --device sim --mode planned --iterations 1 --warmup 0
         --input NAME=FILE.pb ... --expect NAME=ORT.pb ... --output OUT

One row per case: the case, arenaplan's verdict against ONNX Runtime ('match': every --expect 'matches' and the
special values agree bit for bit in class: NaN, +inf, -inf and the sign of a zero; 'NO': it differs, with the first
differing element; 'refused': exit 2 and its one line), and whether ONNX Runtime agrees with onnx.reference (where
it does not, 'ORT != ref' and whether arenaplan follows the reference instead). A case ONNX Runtime refuses or
crashes on (an integer division by zero) is run in a child process and reported as such; arenaplan is then expected
to refuse it (exit 2, one line). The last line counts the rows. Exit 0 when every row matches ONNX Runtime or, where
ONNX Runtime and onnx.reference differ, one of them.

usage: special.py [--jar samples/target/arenaplan.jar] [--only REGEX] [--keep DIR] [-v]
(needs numpy, onnx and onnxruntime: the venv of requirements.txt)
"""
import argparse, concurrent.futures as cf, os, re, subprocess, sys, tempfile
import numpy as np
import onnx
from onnx import helper as H, numpy_helper as nh

NAN, INF, DEN = float("nan"), float("inf"), 1e-40   # 1e-40 is a float32 denormal
F32 = np.float32


class Const:
    """An input given as an initializer (axes, K, Clip bounds): arenaplan takes shape-like values at import."""
    def __init__(self, a):
        self.a = np.asarray(a)


def f(*v):
    return np.array(v, F32)


def case(name, op, inputs, opset=18, outputs=1, **attrs):
    return name, op, inputs, opset, outputs, attrs


SPECIAL = f(NAN, INF, -INF, -0.0, 0.0, DEN, -DEN, 1.0, -2.5, 0.5, -0.5, 1.5, 2.5, 3e38, -3e38)
ROWS = f(*[1, NAN, 3, -INF], *[INF, -INF, 2, 0], *[-0.0, -0.0, DEN, -DEN], *[-INF] * 4, *[INF, 1, 2, 3],
         *[2, NAN, 5, NAN]).reshape(6, 4)
A = f(NAN, 1, NAN, INF, -INF, -0.0, 0.0, INF, DEN, -INF, 2)
B = f(1, NAN, NAN, -INF, INF, 0.0, -0.0, INF, -DEN, -INF, NAN)
REDUCES = ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2",
           "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"]


def cases():
    for op in REDUCES:
        yield case(f"{op} rows", op, [ROWS, Const(np.array([1], np.int64))], keepdims=0)
        yield case(f"{op} all", op, [ROWS], keepdims=0)
        yield case(f"{op} empty f32 [0,4] axis 0", op, [np.zeros((0, 4), F32), Const(np.array([0], np.int64))], keepdims=0)
        yield case(f"{op} empty f32 [3,0] axis 1", op, [np.zeros((3, 0), F32), Const(np.array([1], np.int64))], keepdims=1)
        yield case(f"{op} empty int32 [0,4] axis 0", op, [np.zeros((0, 4), np.int32), Const(np.array([0], np.int64))], keepdims=0)
        yield case(f"{op} empty int64 [0,2]", op, [np.zeros((0, 2), np.int64)], keepdims=0)
    for op in ("ArgMax", "ArgMin"):
        for last in (0, 1):
            yield case(f"{op} rows last={last}", op, [ROWS], axis=1, keepdims=1, select_last_index=last)
            yield case(f"{op} cols last={last}", op, [ROWS], axis=0, keepdims=0, select_last_index=last)
            yield case(f"{op} zeros ±0 last={last}", op, [f(0.0, -0.0, 0.0, -0.0)], axis=0, keepdims=0, select_last_index=last)
    for op in ("Max", "Min", "Mean", "Sum"):
        yield case(f"{op} pairs", op, [A, B])
        yield case(f"{op} three", op, [A, B, f(*[-1.0] * 11)])
        yield case(f"{op} one", op, [A])
    yield case("Clip [0,6]", "Clip", [SPECIAL, Const(F32(0)), Const(F32(6))])
    yield case("Clip min NaN", "Clip", [SPECIAL, Const(F32(NAN)), Const(F32(6))])
    yield case("Clip max NaN", "Clip", [SPECIAL, Const(F32(0)), Const(F32(NAN))])
    yield case("Clip min > max", "Clip", [SPECIAL, Const(F32(6)), Const(F32(0))])
    yield case("Clip min only -inf", "Clip", [SPECIAL, Const(F32(-INF))])
    yield case("Clip no bounds", "Clip", [SPECIAL], opset=13)
    yield case("Clip max only", "Clip", [SPECIAL, None, Const(F32(6))], opset=13)
    yield case("Clip int32 min > max", "Clip", [np.array([-5, 0, 3, 9], np.int32), Const(np.int32(6)), Const(np.int32(1))])
    yield case("Clip opset 6 min > max", "Clip", [SPECIAL], opset=6, min=6.0, max=0.0)
    for op, attrs in [("Relu", {}), ("LeakyRelu", {"alpha": 0.1}), ("Sigmoid", {}), ("Tanh", {}), ("Sign", {}),
                      ("Abs", {}), ("Neg", {}), ("Round", {}), ("Floor", {}), ("Ceil", {}), ("Sqrt", {}), ("Log", {}),
                      ("Exp", {}), ("Reciprocal", {}), ("Softplus", {}), ("Elu", {}), ("Selu", {}), ("Erf", {}),
                      ("HardSigmoid", {}), ("HardSwish", {}), ("Gelu", {}), ("Mish", {}), ("Softsign", {}),
                      ("IsNaN", {}), ("IsInf", {}), ("IsInf", {"detect_negative": 0}), ("IsInf", {"detect_positive": 0}),
                      ("Sin", {}), ("Cos", {}), ("Atan", {}), ("Asin", {}), ("Acos", {}), ("Sinh", {}), ("Cosh", {}),
                      ("Tan", {}), ("Asinh", {}), ("Acosh", {}), ("Atanh", {}), ("ThresholdedRelu", {}), ("Celu", {}),
                      ("Shrink", {"lambd": 0.5, "bias": 0.5})]:
        yield case(f"{op} {' '.join(f'{k}={v}' for k, v in attrs.items())}".strip(), op, [SPECIAL],
                   opset=20 if op == "Gelu" else 22 if op == "Mish" else 18, **attrs)
    yield case("Round int-ish", "Round", [f(0.5, -0.5, 1.5, 2.5, -2.5, 3.5, -0.0, 0.49999997, 8388609, -8388609.5)])
    yield case("PRelu slope specials", "PRelu", [SPECIAL, SPECIAL[::-1].copy()])
    yield case("PRelu slope 0.25", "PRelu", [SPECIAL, Const(F32(0.25))])
    soft = f(*[INF, 1, 2, 3], *[-INF] * 4, *[NAN, 1, 2, 3], *[1, 2, 3, 4], *[INF, INF, 1, 2], *[-INF, 0, -INF, 1],
             *[3e38, 3e38, 1, 0]).reshape(7, 4)
    for op in ("Softmax", "LogSoftmax", "Hardmax"):
        yield case(f"{op} axis -1", op, [soft], opset=13, axis=-1)
        yield case(f"{op} axis 0", op, [soft], opset=13, axis=0)
        yield case(f"{op} opset 11 (2-D)", op, [soft], opset=11, axis=1)
    topx = f(*[3, NAN, 1, INF, -INF, 2], *[NAN, NAN, 0, -0.0, 0.0, 5], *[1, 1, 1, NAN, 1, 1]).reshape(3, 6)
    for largest in (1, 0):
        yield case(f"TopK largest={largest} k=3", "TopK", [topx, Const(np.array([3], np.int64))], outputs=2, axis=1, largest=largest)
        yield case(f"TopK largest={largest} k=6", "TopK", [topx, Const(np.array([6], np.int64))], outputs=2, axis=1, largest=largest)
    pool = f(1, NAN, 3, 4, 5, 6, NAN, 8, -INF, -INF, 2, NAN, -INF, -INF, NAN, NAN).reshape(1, 1, 4, 4)
    yield case("MaxPool 2x2", "MaxPool", [pool], kernel_shape=[2, 2], strides=[2, 2])
    yield case("MaxPool 3x3 pad", "MaxPool", [pool], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    yield case("MaxPool indices", "MaxPool", [pool], outputs=2, opset=12, kernel_shape=[2, 2], strides=[2, 2])
    yield case("GlobalMaxPool", "GlobalMaxPool", [pool])
    yield case("AveragePool 2x2", "AveragePool", [pool], kernel_shape=[2, 2], strides=[2, 2])
    yield case("GlobalAveragePool", "GlobalAveragePool", [pool])
    x = f(5.3, -5.3, 5.3, INF, -5.0, -0.0, 5.0, NAN, 2.0, 0.0, DEN, 7.0)
    y = f(0.0, 3.0, -0.0, 2.0, 3.0, 3.0, INF, 2.0, NAN, -2.0, 1e-30, -INF)
    yield case("Mod fmod=1 f32", "Mod", [x, y], fmod=1)
    ix, iy = np.array([7, -7, 7, -7, 0, -2147483648], np.int32), np.array([3, 3, -3, -3, 5, 7], np.int32)
    yield case("Mod int32 fmod=0", "Mod", [ix, iy])
    yield case("Mod int32 fmod=1", "Mod", [ix, iy], fmod=1)
    yield case("Mod int32 INT_MIN % -1", "Mod", [np.array([-2147483648, 5], np.int32), np.array([-1, 3], np.int32)])
    yield case("Div f32", "Div", [f(1, -1, 0, 1, INF, DEN, -0.0, NAN, 3e38), f(0, 0, 0, -0.0, INF, 1e-30, 2, 1, 1e-5)])
    yield case("Div int32 by 0", "Div", [np.array([7, -7], np.int32), np.array([0, 2], np.int32)])
    yield case("Div int32 INT_MIN/-1", "Div", [np.array([-2147483648, 7], np.int32), np.array([-1, -2], np.int32)])
    yield case("Div int64 by 0", "Div", [np.array([7, 1], np.int64), np.array([1, 0], np.int64)])
    yield case("Mod int32 by 0", "Mod", [np.array([7, 1], np.int32), np.array([1, 0], np.int32)])
    yield case("Pow f32", "Pow", [f(0, -0.0, 0, -8, NAN, 1, -1, INF, -INF, 2, -INF, 0.5, -2),
                                  f(-1, -1, -2, 1 / 3, 0, NAN, INF, -1, 3, INF, -2, -INF, 0.5)])
    yield case("Pow int32", "Pow", [np.array([2, 0, -2, 3], np.int32), np.array([3, 0, 3, -1], np.int32)])
    cx, cy = f(NAN, NAN, 1, INF, -INF, -0.0, INF, DEN), f(NAN, 1, NAN, INF, -INF, 0.0, 3e38, 0)
    for op in ("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"):
        yield case(f"{op} specials", op, [cx, cy])
    yield case("Where specials", "Where", [np.array([True, False] * 4), cx, cy])
    for to, tn in [(onnx.TensorProto.INT32, "int32"), (onnx.TensorProto.INT64, "int64"), (onnx.TensorProto.INT8, "int8"),
                   (onnx.TensorProto.UINT8, "uint8"), (onnx.TensorProto.INT16, "int16"), (onnx.TensorProto.UINT32, "uint32"),
                   (onnx.TensorProto.BOOL, "bool"), (onnx.TensorProto.FLOAT16, "f16"), (onnx.TensorProto.BFLOAT16, "bf16")]:
        yield case(f"Cast f32->{tn}", "Cast", [f(NAN, INF, -INF, -0.0, 3e9, -3e9, 300, -1, 1e20, 2.7, -2.7, DEN, 65520, 70000)], to=to)
    yield case("Cast f32->int32 in range", "Cast", [f(-0.0, 2.7, -2.7, 255.9, -128.5, 2147483520)], to=onnx.TensorProto.INT32)
    yield case("Cast f16->f32", "Cast", [np.array([np.nan, np.inf, -np.inf, -0.0, 6e-8, 65504], np.float16)], to=onnx.TensorProto.FLOAT)
    cs = f(1, INF, -INF, 2, NAN, 3)
    for ex, rev in ((0, 0), (1, 0), (0, 1), (1, 1)):
        yield case(f"CumSum exclusive={ex} reverse={rev}", "CumSum", [cs, Const(np.array(0, np.int64))], exclusive=ex, reverse=rev)


def build(name, op, inputs, opset, n_out, attrs, d):
    """Writes the model and its input files; returns (model path, [(input name, file)], onnx model)."""
    nodes_in, vis, inits, feeds = [], [], [], []
    for k, a in enumerate(inputs):
        if a is None:
            nodes_in.append("")
            continue
        nm = f"in{k}"
        nodes_in.append(nm)
        if isinstance(a, Const):
            inits.append(nh.from_array(a.a, nm))
        else:
            vis.append(H.make_tensor_value_info(nm, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape)))
            path = os.path.join(d, f"{nm}.pb")
            with open(path, "wb") as fh:
                fh.write(nh.from_array(a, nm).SerializeToString())
            feeds.append((nm, path, a))
    outs = [f"out{k}" for k in range(n_out)]
    g = H.make_graph([H.make_node(op, nodes_in, outs, **attrs)], "special", vis,
                     [H.make_empty_tensor_value_info(o) for o in outs], initializer=inits)
    m = H.make_model(g, opset_imports=[H.make_opsetid("", opset)], ir_version=8)
    inferred = {v.name: v for v in onnx.shape_inference.infer_shapes(m).graph.value_info}
    del m.graph.output[:]
    m.graph.output.extend(inferred.get(o, H.make_tensor_value_info(o, onnx.TensorProto.FLOAT, None)) for o in outs)
    return m, feeds, outs


def oracles(model_bytes, feeds):
    """Runs ONNX Runtime and onnx.reference in a worker process (an integer division by zero may kill it)."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator
    import warnings
    model = onnx.load_from_string(model_bytes)
    res = {}
    try:
        so = ort.SessionOptions()
        so.log_severity_level = 4   # its refusals are reported in the row
        s = ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"])
        res["ort"] = s.run(None, feeds)
    except Exception as e:   # noqa: BLE001 (the oracle's own refusal is a result)
        res["ort_error"] = str(e).splitlines()[0][:160]
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            res["ref"] = [np.asarray(v) for v in ReferenceEvaluator(model).run(None, feeds)]
    except Exception as e:   # noqa: BLE001
        res["ref_error"] = str(e).splitlines()[0][:160]
    return res


def classes(a):
    """Per element a tag for what allclose leaves out: NaN, the infinities and the sign of a zero."""
    a = np.asarray(a)
    if a.dtype.kind != "f":
        return a.astype(object)
    a = a.astype(np.float64)
    return np.where(np.isnan(a), "nan", np.where(np.isinf(a), np.where(a > 0, "inf", "-inf"),
                    np.where(a == 0, np.where(np.signbit(a), "-0", "0"), "x")))


def same(got, want):
    """(bool, why): integers exactly, floats as arenaplan's --expect (rtol 1e-3, atol 1e-5) plus the classes above."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False, f"shape {list(got.shape)} vs {list(want.shape)}"
    if want.dtype.kind != "f":
        bad = np.argwhere(got != want)
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        with np.errstate(all="ignore"):
            close = np.isclose(g, w, rtol=1e-3, atol=1e-5, equal_nan=True)
        bad = np.argwhere(~close | (classes(g) != classes(w)))
    if len(bad) == 0:
        return True, ""
    i = tuple(int(k) for k in bad[0])
    return False, f"at {list(i)}: {got[i]} vs {want[i]} ({len(bad)} of {want.size})"


def arenaplan(jar, model, feeds, outs, refs, d, tag):
    """Runs arenaplan with --expect against refs; returns (rc, its outputs or None, one line)."""
    exp = []
    for o, r in zip(outs, refs):
        p = os.path.join(d, f"{o}.{tag}.pb")
        with open(p, "wb") as fh:
            fh.write(nh.from_array(np.asarray(r), o).SerializeToString())
        exp += ["--expect", f"{o}={p}"]
    od = os.path.join(d, f"got.{tag}")
    cmd = ["java", "-jar", jar, "run", model, "--device", "sim", "--mode", "planned", "--iterations", "1",
           "--warmup", "0", "--output", od] + [x for nm, p, _ in feeds for x in ("--input", f"{nm}={p}")] + exp
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    if p.returncode not in (0, 1):
        lines = [l for l in out.splitlines() if l.strip()]
        crash = "Exception" in out and "\tat " in out
        return p.returncode, None, ("CRASH " if crash else "") + (lines[-1] if lines else "(no output)")
    files = [od if len(outs) == 1 else os.path.join(od, f"{o}.pb") for o in outs]
    if not all(os.path.isfile(x) for x in files):
        lines = [l for l in out.splitlines() if l.strip()]
        return p.returncode, None, "CRASH " + (lines[-1] if lines else "(no output)")
    return p.returncode, [nh.to_array(onnx.load_tensor(x)) for x in files], ""


def show(a):
    a = np.asarray(a)
    s = np.array2string(a.reshape(-1)[:16], separator=",", threshold=16, max_line_width=10 ** 6)
    return s.replace(" ", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jar", default=os.path.join(os.path.dirname(__file__), "..", "..", "samples", "target", "arenaplan.jar"))
    ap.add_argument("--only", default="", help="run only the cases whose name matches this regular expression")
    ap.add_argument("--keep", help="write the cases' models and files here (default: a temporary folder)")
    ap.add_argument("-v", action="store_true", help="print the values of each row that does not match")
    a = ap.parse_args()
    if not os.path.isfile(a.jar):
        sys.exit(f"special.py: no jar at {a.jar}; build it with ./arenaplan --help (or give --jar)")
    root = a.keep or tempfile.mkdtemp(prefix="special-")
    pool = cf.ProcessPoolExecutor(max_workers=1)
    counts = {}
    print(f"{'case':44} {'arenaplan vs ONNX Runtime':60} ONNX Runtime vs onnx.reference")
    for n, (name, op, inputs, opset, n_out, attrs) in enumerate(c for c in cases() if re.search(a.only, c[0])):
        d = os.path.join(root, f"{n:03d}_" + re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_"))
        os.makedirs(d, exist_ok=True)
        m, feeds, outs = build(name, op, inputs, opset, n_out, attrs, d)
        try:
            res = pool.submit(oracles, m.SerializeToString(), {k: v for k, _, v in feeds}).result()
        except cf.process.BrokenProcessPool:
            pool = cf.ProcessPoolExecutor(max_workers=1)
            res = {"ort_error": "ONNX Runtime's process died (a signal)", "ref_error": "not run"}
        ort_out, ref_out = res.get("ort"), res.get("ref")
        # the graph outputs, typed from ONNX Runtime's results (or the reference's), written for arenaplan
        typed = ort_out or ref_out
        del m.graph.output[:]
        for o, v in zip(outs, typed or []):
            m.graph.output.append(H.make_tensor_value_info(o, onnx.helper.np_dtype_to_tensor_dtype(np.asarray(v).dtype),
                                                           list(np.asarray(v).shape)))
        if not typed:
            m.graph.output.extend(H.make_empty_tensor_value_info(o) for o in outs)
        model = os.path.join(d, "model.onnx")
        onnx.save(m, model)
        if ort_out is None:
            spec = "ORT fails: " + res["ort_error"]
        elif ref_out is None:
            spec = "reference fails: " + res["ref_error"][:60]
        else:
            diffs = [same(o, r) for o, r in zip(ort_out, ref_out)]
            spec = "same" if all(ok for ok, _ in diffs) else "ORT vs ref " + next(w for ok, w in diffs if not ok)
        if ort_out is None:
            cmd = ["java", "-jar", a.jar, "run", model, "--device", "sim", "--mode", "planned", "--iterations", "1",
                   "--warmup", "0"] + [x for nm, p, _ in feeds for x in ("--input", f"{nm}={p}")]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            out = [l for l in (p.stdout + p.stderr).splitlines() if l.strip()]
            crash = "\tat " in p.stdout + p.stderr
            verdict = "refused too" if p.returncode == 2 and not crash else f"rc={p.returncode}{' CRASH' if crash else ''}"
            row = f"{verdict}: {out[-1] if out else ''}"
            status = "match" if verdict == "refused too" else "NO"
        else:
            rc, got, line = arenaplan(a.jar, model, feeds, outs, ort_out, d, "ort")
            if got is None:
                status, row = ("refused" if rc == 2 and not line.startswith("CRASH") else "CRASH"), line
            else:
                diffs = [same(g, o) for g, o in zip(got, ort_out)]
                if all(ok for ok, _ in diffs) and rc == 0:
                    status, row = "match", "match"
                else:
                    why = next((w for ok, w in diffs if not ok), "--expect says NO")
                    status, row = "NO", "NO got vs ORT " + why
                    if ref_out is not None and spec != "same" and all(same(g, r)[0] for g, r in zip(got, ref_out)):
                        status, row = "spec", "follows onnx.reference, not ORT: " + why
                if a.v and status != "match":
                    row += f"\n{'':44} got {' '.join(show(g) for g in got)}\n{'':44} ORT {' '.join(show(o) for o in ort_out)}"
        counts[status] = counts.get(status, 0) + 1
        print(f"{name:44} {row:60} {spec}", flush=True)
    print("rows: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    sys.exit(0 if set(counts) <= {"match", "spec"} else 1)


if __name__ == "__main__":
    main()
