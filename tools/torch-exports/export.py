#!/usr/bin/env python3
"""Exports models of models.py to ONNX with PyTorch's exporters and writes ONNX Runtime's outputs
beside them as references, in the layout of ../shared/models/real, for check.py to run on arenaplan.

For every model and exporter this writes into OUT:
  NAME_EXP.onnx, NAME_EXP_input_K.pb (graph-input order), NAME_EXP_output_K.pb (ONNX Runtime 1.30, CPU, without
  its Pad_Fusion rewrite, which changes Pad(0) + MaxPool),
  NAME_EXP.meta.json (file, opset, exporter, inputs {name: {file, shape, dtype}}, outputs [{name, file, ...}], ops)
where EXP is tsNN (TorchScript exporter, dynamo=False, opset NN) or dynamoNN (dynamo=True, opset NN).
A model an exporter cannot export is reported on one line and skipped.

usage: export.py OUT [--models NAME,...|vision|text|nn|bounded|detection|all] [--exporters ts14,ts17,dynamo18]
"""
import argparse, contextlib, io, json, os, re, sys, warnings
warnings.filterwarnings("ignore")
import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import MODELS  # noqa: E402

torch.backends.mha.set_fastpath_enabled(False)   # else the TorchScript exporter meets aten::_native_multi_head_attention


@contextlib.contextmanager
def _quiet():
    """Silences the exporters' progress and warnings, printed by Python and C++ alike (file descriptors 1, 2)."""
    sys.stdout.flush(), sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1), os.dup2(null, 2)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        os.dup2(saved[0], 1), os.dup2(saved[1], 2)
        for fd in saved + [null]:
            os.close(fd)


def export(name, exporter, out, failures=False, trace=None):
    """Exports MODELS[name] with exporter into out, with ONNX Runtime's outputs as references. Where ONNX Runtime
    fails the run and failures is true, the meta.json holds its one-line error as "reference_error" and no outputs
    (check.py then expects arenaplan to refuse the run, exit 2); else the failure raises. trace: the inputs the
    exporter traces the model on, where they are not the ones run (torch fails x[m].max() traced on an empty m)."""
    torch.manual_seed(0)                          # the same weights whichever exporter, whatever ran before
    module, inputs, names = MODELS[name][1]()
    module = module.eval()
    trace = inputs if trace is None else trace
    dynamo, opset = exporter.startswith("dynamo"), int(exporter.lstrip("tsdynamo"))
    tag = f"{name}_{exporter}"
    f = os.path.join(out, tag + ".onnx")
    with torch.no_grad(), _quiet():
        n_out = len(module(*trace))
    with torch.no_grad(), _quiet():
        torch.onnx.export(module, trace, f, opset_version=opset, dynamo=dynamo, input_names=names,
                          output_names=[f"output_{k}" for k in range(n_out)])
    # Pad_Fusion folds a Pad of zeros into MaxPool's pads, where padding never wins (BiT's 'SAME' pooling)
    session = ort.InferenceSession(f, providers=["CPUExecutionProvider"], disabled_optimizers=["Pad_Fusion"])
    given = dict(zip(names, inputs))
    meta = {"name": tag, "file": tag + ".onnx", "opset": opset,
            "exporter": f"torch.onnx {'dynamo' if dynamo else 'TorchScript'} (dynamo={dynamo}), torch {torch.__version__}",
            "reference": f"onnxruntime {ort.__version__} CPU, Pad_Fusion off", "inputs": {}, "outputs": []}
    feed = {}
    for k, i in enumerate(session.get_inputs()):    # an exporter drops inputs the graph does not read
        a = given[i.name].numpy()
        feed[i.name] = a
        fn = f"{tag}_input_{k}.pb"
        open(os.path.join(out, fn), "wb").write(numpy_helper.from_array(a, i.name).SerializeToString())
        meta["inputs"][i.name] = {"file": fn, "shape": list(a.shape), "dtype": str(a.dtype)}
    try:
        ys = session.run(None, feed)
    except Exception as x:   # onnxruntime's errors have no common class
        if not failures:
            raise
        ys = []
        meta["reference_error"] = re.sub(r"\s+", " ", str(x)).strip()[:300]
    for k, (o, y) in enumerate(zip(session.get_outputs(), ys)):
        y = np.asarray(y)
        fn = f"{tag}_output_{k}.pb"
        open(os.path.join(out, fn), "wb").write(numpy_helper.from_array(y, o.name).SerializeToString())
        meta["outputs"].append({"name": o.name, "file": fn, "shape": list(y.shape), "dtype": str(y.dtype)})
    meta["ops"] = sorted({n.op_type for n in onnx.load(f, load_external_data=False).graph.node})
    json.dump(meta, open(os.path.join(out, tag + ".meta.json"), "w"), indent=1)
    print(f"exported {tag}: {len(meta['ops'])} op types, " + (f"ONNX Runtime fails it ({meta['reference_error'][:80]})" if "reference_error" in meta
          else f"{len(meta['outputs'])} output(s)"), flush=True)


def export_cases(doc, cases, patterns=None):
    """The command line of a generator of cases (masked.py, reduced.py, sliced.py): usage GEN OUT [--exporters ts14,ts17,dynamo18]
    (and [--patterns a,b] where patterns names them); each case (name, build as a MODELS entry builds, options for export)
    exported by each exporter, one line per failure. cases is an iterable, or a function of the parsed arguments giving one."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--exporters", default="ts14,ts17,dynamo18")
    if patterns is not None:
        ap.add_argument("--patterns", default=",".join(patterns))
    a = ap.parse_args()
    if callable(cases):
        cases = cases(a)
    os.makedirs(a.out, exist_ok=True)
    for name, build, options in cases:
        MODELS[name] = ("nn", build)
        for e in a.exporters.split(","):
            try:
                export(name, e, a.out, **options)
            except Exception as x:   # one line per failed export; the rest go on
                print(f"not exported {name}_{e}: {reason(x)}", flush=True)


def reason(x):
    """One line of why an export failed: the exception's first line; for torch.export's (a TorchExportError whose first
    line only says which step failed) also the underlying error's class, its first 150 characters and where it was raised."""
    why = re.sub(r"\x1b\[[0-9;]*m", "", str(x)).strip()
    lines = why.splitlines()
    line = f"{type(x).__name__}: {lines[0][:200] if lines else ''}"
    cause = next((m for m in (re.match(r"<class '(?:\w+\.)*(\w+)'>: (.*)", l) for l in lines) if m), None)
    where = next((l.strip() for l in lines if l.startswith("Caused by: (")), "")
    return line + (f" {cause.group(1)}: {cause.group(2)[:150]} {where}".rstrip() if cause else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--models", default="all", help="names of models.py, or vision, text, nn, bounded, detection, all (all but bounded and detection)")
    ap.add_argument("--exporters", default="ts14,ts17,dynamo18")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    groups = {"all": [n for n, (k, _) in MODELS.items() if k not in ("bounded", "detection")]} | \
        {g: [n for n, (k, _) in MODELS.items() if k == g] for g in ("vision", "text", "nn", "bounded", "detection")}
    names = [n for part in a.models.split(",") for n in groups.get(part, [part])]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.exit(f"export.py: unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    failed = 0
    for name in names:
        for e in a.exporters.split(","):
            try:
                export(name, e, a.out)
            except Exception as x:   # one line per failed export; the rest go on
                failed += 1
                print(f"not exported {name}_{e}: {reason(x)}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
