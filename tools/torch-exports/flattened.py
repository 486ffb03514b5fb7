#!/usr/bin/env python3
"""Exports reshapes that merge or split the rows of a boolean-mask selection, as export.py exports a model (same layout
and references): x[m].flatten(), x[m].view(-1), x[m].reshape(-1, 1), x[m].view(-1).view(-1, 3), x[m].flatten().max()
and x[m].view(-1).view(-1, 3).sum(0), for x [5, 3] with a row mask m [5], f32 and int64, with some, no and all rows
selected, by each exporter; each traced where some are selected and run, for the references, on its own mask (as
reduced.py, whose x[m].argmax() and .norm() of rows flatten them the same way).

usage: flattened.py OUT [--exporters ts14,ts17,dynamo18] [--patterns flatten,view,...]
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
import export  # noqa: E402
import reduced  # noqa: E402

PATTERNS = {
    "flatten": lambda s: s.flatten(), "view": lambda s: s.view(-1), "column": lambda s: s.reshape(-1, 1),
    "rows": lambda s: s.view(-1).view(-1, 3), "flatmax": lambda s: s.flatten().max(), "rowsum": lambda s: s.view(-1).view(-1, 3).sum(0),
}


def cases(patterns):
    for mname, m in reduced.masks(5).items():
        for p in patterns:
            for dt in (torch.float32, torch.int64):
                x = torch.arange(15).reshape(5, 3) - 4
                x = (x.float() * 0.5) if dt.is_floating_point else x
                yield f"{p}_r53_{mname}_{str(dt).split('.')[-1]}", (lambda p=p, x=x, m=m: (reduced.Reduce(PATTERNS[p]), (x, m), ["x", "m"]))


def main():   # traced where some are selected, run on m
    export.export_cases(__doc__, lambda a: ((name, build, {"failures": True, "trace": (build()[1][0], reduced.masks(5)["some"])})
                                            for name, build in cases(a.patterns.split(","))), PATTERNS)


if __name__ == "__main__":
    main()
