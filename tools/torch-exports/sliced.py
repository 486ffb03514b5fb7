#!/usr/bin/env python3
"""Exports slices of a masked selection whose starts and ends ONNX computes in the run from its count, as export.py
exports a model (same layout and references): torch.chunk(x[m], 2), x[m][:n // 2], x[m][1:], x[m][-2:],
x[m].narrow(0, 1, 2), x[m].flip(0), torch.cat([x[m], x[~m]]) and torch.cat([x[m], x]) for x [6] with m [6] and
x [5, 3] with m [5] (rows), f32 and int64, with 0 to 6 elements (0 to 5 rows) selected, by each exporter. A case torch or an exporter cannot run
(narrow of fewer than 3 selected; torch.chunk by the dynamo exporter) is reported on one line ("not exported ...").

usage: sliced.py OUT [--exporters ts14,ts17,dynamo18] [--patterns chunk,half,...]
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import export  # noqa: E402


class Pattern(nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, x, m):
        return self.f(x, m)


PATTERNS = {
    "chunk": lambda x, m: torch.chunk(x[m], 2),
    "half": lambda x, m: (x[m][:x[m].shape[0] // 2],),
    "drop1": lambda x, m: (x[m][1:],),
    "last2": lambda x, m: (x[m][-2:],),
    "narrow": lambda x, m: (x[m].narrow(0, 1, 2),),
    "flip": lambda x, m: (x[m].flip(0),),
    "cat": lambda x, m: (torch.cat([x[m], x[~m]]),),
    "catx": lambda x, m: (torch.cat([x[m], x]),),
}


def masks(n):
    """Masks over n elements selecting the first k, every k in 0..n, mixed so that the selected ones are not a prefix."""
    order = torch.randperm(n, generator=torch.Generator().manual_seed(1))
    for k in range(n + 1):
        m = torch.zeros(n, dtype=torch.bool)
        m[order[:k]] = True
        yield k, m


def cases(patterns):
    for xs, tag in [((6,), "v6"), ((5, 3), "r53")]:
        for k, m in masks(xs[0]):
            for p in patterns:
                for dt in (torch.float32, torch.int64):
                    x = torch.arange(torch.tensor(xs).prod()).reshape(xs) - 4
                    x = (x.float() * 0.5).to(dt) if dt.is_floating_point else x.to(dt)
                    yield f"{p}_{tag}_n{k}_{str(dt).split('.')[-1]}", (lambda p=p, x=x, m=m: (Pattern(PATTERNS[p]), (x, m), ["x", "m"]))


def main():
    export.export_cases(__doc__, lambda a: ((name, build, {}) for name, build in cases(a.patterns.split(","))), PATTERNS)


if __name__ == "__main__":
    main()
