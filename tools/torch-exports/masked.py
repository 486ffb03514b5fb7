#!/usr/bin/env python3
"""Exports boolean-mask reads and assignments over rows, as export.py exports a model (same layout and references):
x[m], y[m] = 2.5 and y[m] = x[m] * 2 for x [5, 3] with m [5] (f32, f16, int64, int32) and x [2, 3, 4] with m [2, 3]
(f32), with some, no and all rows selected, by each exporter. The TorchScript exporter writes y[m] = 2.5 over rows as
Where(m, 2.5, x), which ONNX Runtime refuses to load ("not exported ...": expected).

usage: masked.py OUT [--exporters ts14,ts17,dynamo18]
"""
import argparse, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import export  # noqa: E402
from models import MODELS  # noqa: E402


class Read(nn.Module):
    def forward(self, x, m):
        return (x[m],)


class SetValue(nn.Module):
    def forward(self, x, m):
        y = x.clone()
        y[m] = 2.5
        return (y,)


class SetRows(nn.Module):
    def forward(self, x, m):
        y = x.clone()
        y[m] = x[m] * 2
        return (y,)


def masks(shape):
    some = torch.rand(shape, generator=torch.Generator().manual_seed(1)) > 0.5
    some.view(-1)[0], some.view(-1)[-1] = True, False
    return {"some": some, "none": torch.zeros(shape, dtype=torch.bool), "all": torch.ones(shape, dtype=torch.bool)}


def cases():
    for xs, ms, tag, dtypes in [((5, 3), (5,), "r53", (torch.float32, torch.float16, torch.int64, torch.int32)),
                                ((2, 3, 4), (2, 3), "r234", (torch.float32,))]:
        for mname, m in masks(ms).items():
            for cname, cls in [("read", Read), ("setv", SetValue), ("setx", SetRows)]:
                for dt in dtypes:
                    x = torch.arange(torch.tensor(xs).prod()).reshape(xs) - 4
                    x = (x.float() * 0.5).to(dt) if dt.is_floating_point else x.to(dt)
                    yield f"{cname}_{tag}_{mname}_{str(dt).split('.')[-1]}", (lambda cls=cls, x=x, m=m: (cls(), (x, m), ["x", "m"]))


def export_all(named, out, exporters):
    """Exports each (name, build) of named with each exporter into out, as export.py does; one line per failed export."""
    os.makedirs(out, exist_ok=True)
    for name, build in named:
        MODELS[name] = ("nn", build)
        for e in exporters.split(","):
            try:
                export.export(name, e, out)
            except Exception as x:   # one line per failed export; the rest go on
                print(f"not exported {name}_{e}: {type(x).__name__}: {str(x).strip().splitlines()[0][:200]}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--exporters", default="ts14,ts17,dynamo18")
    a = ap.parse_args()
    export_all(cases(), a.out, a.exporters)


if __name__ == "__main__":
    main()
