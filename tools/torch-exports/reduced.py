#!/usr/bin/env python3
"""Exports reductions of boolean-mask selections, as export.py exports a model (same layout and references):
x[m].sum(), .sum(0), .mean(), .mean(0), .max(), .min(), .amax(0), .prod(), .argmax(), .argmax(0), .norm(), .std(),
.var(), (x[m] > 0).any(), .all() and .sum(1), and the normalisations softmax(x[m], 0), log_softmax(x[m], 0) and
softmax(x[m], 1), for x [6] with m [6] and x [5, 3] with m [5] (rows), f32 and int64
(the patterns torch takes on integers: sum, max, min, amax, prod, argmax, any, all), with some, no and all selected,
by each exporter. Where ONNX Runtime fails the run (argmax of nothing selected) the meta.json holds its error
("reference_error") and check.py expects arenaplan to refuse the run too (exit 2). Each export is traced where
some are selected (torch fails to trace x[m].max() of none) and run, for the references, on its own mask.

usage: reduced.py OUT [--exporters ts14,ts17,dynamo18] [--patterns sum,softmax0,...]
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import export  # noqa: E402

PATTERNS = {   # name: (x[m] -> result, whether torch takes an integer x)
    "sum": (lambda s: s.sum(), True), "sum0": (lambda s: s.sum(0), True), "mean": (lambda s: s.mean(), False),
    "mean0": (lambda s: s.mean(0), False), "max": (lambda s: s.max(), True), "min": (lambda s: s.min(), True),
    "amax0": (lambda s: s.amax(0), True), "prod": (lambda s: s.prod(), True), "argmax": (lambda s: s.argmax(), True),
    "argmax0": (lambda s: s.argmax(0), True), "norm": (lambda s: s.norm(), False), "std": (lambda s: s.std(), False),
    "var": (lambda s: s.var(), False), "any": (lambda s: (s > 0).any(), True), "all": (lambda s: (s > 0).all(), True),
    "sum1": (lambda s: s.sum(1), True), "softmax0": (lambda s: torch.softmax(s, 0), False),
    "log_softmax0": (lambda s: torch.log_softmax(s, 0), False), "softmax1": (lambda s: torch.softmax(s, 1), False),
}
ROWS = {"mean0", "amax0", "argmax0", "sum1", "softmax1"}   # an axis x [6] lacks (sum0 of [n] is sum)


class Reduce(nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, x, m):
        return (self.f(x[m]),)


def masks(n):
    some = torch.tensor([True, False, True, True, False, True][:n])
    return {"some": some, "none": torch.zeros(n, dtype=torch.bool), "all": torch.ones(n, dtype=torch.bool)}


def cases(patterns):
    for xs, tag in [((6,), "x6"), ((5, 3), "r53")]:
        for mname, m in masks(xs[0]).items():
            for pname, (f, ints) in PATTERNS.items():
                if pname not in patterns or pname in ROWS and len(xs) == 1:
                    continue
                for dt in (torch.float32, torch.int64) if ints else (torch.float32,):
                    x = torch.arange(torch.tensor(xs).prod()).reshape(xs) - 4
                    x = (x.float() * 0.5) if dt.is_floating_point else x
                    yield f"{pname}_{tag}_{mname}_{str(dt).split('.')[-1]}", (lambda f=f, x=x, m=m: (Reduce(f), (x, m), ["x", "m"]))


def main():   # traced where some are selected (torch fails to trace x[m].max() of none), run on m
    export.export_cases(__doc__, lambda a: ((name, build, {"failures": True, "trace": (build()[1][0], masks(len(build()[1][1]))["some"])})
                                            for name, build in cases(a.patterns.split(","))), PATTERNS)


if __name__ == "__main__":
    main()
